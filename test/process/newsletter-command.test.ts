// `postbox newsletter send` before a campaign, as a real process: --dry-run says what would go and creates nothing,
// --test sends the very mail a subscriber gets (here into the file outbox) to one checked address, --lang picks
// the translation, --segment counts a segment, and the refusals read clearly.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { writeConfigFile } from '../support/config.js';
import { runPostbox } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

describe('postbox newsletter send before a campaign', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let configFile: string;
  let dataDir: string;
  const send = (...args: string[]) => runPostbox(['newsletter', 'send', '--config', configFile, '--form', '/newsletter', ...args]);

  before(async () => {
    temp = await createTempDir('newsletter-command');
    dataDir = path.join(temp.dir, 'data');
    const posts = path.join(temp.dir, 'posts');
    await mkdir(dataDir);
    await mkdir(posts);
    const subscribed = (email: string, lang?: string) => `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z', lang })}\n`;
    await writeFile(path.join(dataDir, 'newsletter-subscribers.jsonl'), subscribed('a@example.org') + subscribed('b@example.org', 'fr'));
    await writeFile(path.join(posts, 'spring.md'), '+++\ntitle = "Spring"\ndate = 2026-03-01\n+++\n\nThe [garden](/garden) is open.\n');
    await writeFile(path.join(posts, 'spring.fr.md'), '+++\ntitle = "Printemps"\ndate = 2026-03-01\n+++\n\nLe jardin est ouvert.\n');
    configFile = await writeConfigFile(temp.dir, {
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'file', from: 'News <news@example.com>', to: 'owner@example.com' },
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'] }],
      site: { title: 'The Garden', base_url: 'https://example.com' },
      blog: { listen: '127.0.0.1:0', content_dir: posts },
      newsletter: { segments: [{ id: 'french', list: 'newsletter', lang: 'fr' }] },
    });
  });
  after(() => temp.remove());

  it('--dry-run names the post, its address and the number of subscribers, and creates no campaign', async () => {
    const result = await send('--post', 'spring', '--dry-run');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '"Spring" (en, https://example.com/blog/spring) to the 2 subscribers of /newsletter\n');
    assert.deepEqual(await readdir(dataDir).then((names) => names.filter((name) => name === 'campaigns')), []);
  });

  it('--segment --dry-run counts the subscribers the segment takes, of those on its list', async () => {
    const result = await runPostbox(['newsletter', 'send', '--config', configFile, '--segment', 'french', '--post', 'spring', '--dry-run']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '"Spring" (en, https://example.com/blog/spring) to the 1 subscriber of segment french (2 on /newsletter)\n');
    const unknown = await runPostbox(['newsletter', 'send', '--config', configFile, '--segment', 'german', '--post', 'spring', '--dry-run']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'postbox: no segment "german" (segments: french)\n');
  });

  it('--test sends the translation --lang names to one address, with its own unsubscribe link, and no campaign', async () => {
    const result = await send('--post', 'spring', '--lang', 'fr', '--test', 'me@example.net');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^test of the campaign to me@example\.net written to files under /);
    const outbox = path.join(dataDir, 'outbox');
    const [file] = await readdir(outbox);
    const mail = await simpleParser(await readFile(path.join(outbox, file!)));
    assert.equal(mail.subject, 'Printemps');
    assert.deepEqual(mail.to && 'value' in mail.to ? mail.to.value.map((address) => address.address) : [], ['me@example.net']);
    const listUnsubscribe = mail.headerLines.find((line) => line.key === 'list-unsubscribe')?.line ?? '';
    assert.match(listUnsubscribe, /^List-Unsubscribe: <https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=[^>]+>$/);
    assert.match(mail.text ?? '', /Le jardin est ouvert\./);
    assert.match(String(mail.html), /Le jardin est ouvert\./);
    assert.equal((await readdir(dataDir)).includes('campaigns'), false);
  });

  it('refuses a --test that is not one address, a post that is not published, and a form that is not a newsletter', async () => {
    const bad = await send('--post', 'spring', '--test', 'nope');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^postbox: --test must be a mail address/);
    const missing = await send('--post', 'autumn');
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'postbox: no published post "autumn" (drafts and scheduled posts are not sent)\n');
    const other = await runPostbox(['newsletter', 'send', '--config', configFile, '--form', '/contact', '--post', 'spring']);
    assert.equal(other.code, 1);
    assert.equal(other.stderr, 'postbox: no newsletter form at /contact (newsletter forms: /newsletter)\n');
  });
});
