// `postbox subscribers export` as a real process: the folded subscriber log (an old line without `event`, a
// subscription, an unsubscription) as RFC 4180 CSV with formula-looking cells defused, or as JSON; a list without a
// form by its id; unknown form or list; `subscribers tag` setting the tags the JSON then shows.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { runPostbox } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

describe('postbox subscribers export', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let configFile: string;
  before(async () => {
    temp = await createTempDir('subscribers-export');
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const lines = [
      { email: 'old@example.org', form: '/newsletter', subscribed_at: '2024-01-01T00:00:00.000Z' },
      { event: 'subscribed', email: '=cmd@example.org', form: '/newsletter', subscribed_at: '2024-02-01T00:00:00.000Z' },
      { event: 'subscribed', email: 'gone@example.org', form: '/newsletter', subscribed_at: '2024-03-01T00:00:00.000Z' },
      { event: 'unsubscribed', email: 'gone@example.org', form: '/newsletter', at: '2024-04-01T00:00:00.000Z' },
    ];
    await writeFile(path.join(dataDir, 'newsletter-subscribers.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const weekly = { event: 'subscribed', email: 'ada@example.org', form: 'weekly', subscribed_at: '2024-05-01T00:00:00.000Z', signed_up_at: '2024-05-01T00:00:00.000Z' };
    await writeFile(path.join(dataDir, 'newsletter-list-weekly-subscribers.jsonl'), `${JSON.stringify(weekly)}\n`);
    configFile = await writeConfigFile(temp.dir, {
      data_dir: dataDir,
      server: { public_url: 'https://forms.example.com' },
      mail: { from: 'forms@example.com', to: 'owner@example.com' },
      forms: [
        { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'] },
        { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] },
      ],
      newsletter: { lists: [{ id: 'weekly' }] },
    });
  });
  after(() => temp.remove());

  it('prints the current subscribers as CSV, a formula-looking address defused', async () => {
    const result = await runPostbox(['subscribers', 'export', '--form', '/newsletter', '--config', configFile]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "email,subscribed_at\r\nold@example.org,2024-01-01T00:00:00.000Z\r\n'=cmd@example.org,2024-02-01T00:00:00.000Z\r\n");
  });

  it('prints them as JSON', async () => {
    const result = await runPostbox(['subscribers', 'export', '--form', '/newsletter', '--format', 'json', '--config', configFile]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), [
      { email: 'old@example.org', subscribed_at: '2024-01-01T00:00:00.000Z' },
      { email: '=cmd@example.org', subscribed_at: '2024-02-01T00:00:00.000Z' },
    ]);
  });

  it('prints a list without a form of its own by its id, and names the lists when the id is none', async () => {
    const result = await runPostbox(['subscribers', 'export', '--list', 'weekly', '--config', configFile]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'email,subscribed_at\r\nada@example.org,2024-05-01T00:00:00.000Z\r\n');
    const unknown = await runPostbox(['subscribers', 'export', '--list', 'daily', '--config', configFile]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'postbox: no newsletter list "daily" (lists: newsletter, weekly)\n');
  });

  it('names the newsletter forms when the path is not one, and refuses a bad format', async () => {
    const contact = await runPostbox(['subscribers', 'export', '--form', '/contact', '--config', configFile]);
    assert.equal(contact.code, 1);
    assert.equal(contact.stderr, 'postbox: no newsletter form at /contact (newsletter forms: /newsletter)\n');
    const format = await runPostbox(['subscribers', 'export', '--form', '/newsletter', '--format', 'xml', '--config', configFile]);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /postbox subscribers export --form PATH/);
  });

  it('refuses its options on another command instead of ignoring them', async () => {
    const misplaced = await runPostbox(['serve', '--format', 'json', '--config', configFile]);
    assert.equal(misplaced.code, 2);
    assert.equal(misplaced.stderr, 'postbox: --format goes with subscribers or bounces: postbox subscribers ..., postbox bounces ...\n');
  });

  it('tags a subscriber, whose tags the JSON then shows, and refuses an address not on the list', async () => {
    const tagged = await runPostbox(['subscribers', 'tag', '--list', 'weekly', 'Ada@example.org', 'VIP', 'beta,vip', '--config', configFile]);
    assert.equal(tagged.code, 0, tagged.stderr);
    assert.equal(tagged.stdout, 'Ada@example.org: beta, vip\n');
    const result = await runPostbox(['subscribers', 'export', '--list', 'weekly', '--format', 'json', '--config', configFile]);
    assert.deepEqual(JSON.parse(result.stdout), [{ email: 'ada@example.org', subscribed_at: '2024-05-01T00:00:00.000Z', signed_up_at: '2024-05-01T00:00:00.000Z', tags: ['beta', 'vip'] }]);
    const stranger = await runPostbox(['subscribers', 'tag', '--list', 'weekly', 'bob@example.org', 'vip', '--config', configFile]);
    assert.equal(stranger.code, 1);
    assert.equal(stranger.stderr, 'postbox: bob@example.org is not subscribed to weekly\n');
  });
});
