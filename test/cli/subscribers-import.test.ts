// `postbox subscribers import` (docs/newsletter.md "Importing addresses"): the addresses of a CSV file added to a
// list marked as imported, with the tags of their column; repeated rows merged; tags merged into a subscription
// that exists; an address that unsubscribed, or is suppressed, is not put back; rows without an address counted.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBackend } from '../../src/app/open-backend.js';
import { parseSubscribersCommand, runSubscribersCommand, type SubscribersCommand } from '../../src/cli/subscribers.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { loadTestConfig } from '../support/config.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';


/** Imports a file into the list `weekly` of a backend (`state`: none for files) holding a subscriber with a tag and one that left. */
async function importCase(state: Record<string, unknown> | undefined): Promise<void> {
  const temp = await createTempDir('import');
  try {
    const config = loadTestConfig(
      {
        data_dir: 'data',
        ...(state ? { state } : {}),
        server: { public_url: 'https://forms.example.com' },
        mail: { from: 'news@example.com', to: 'owner@example.com' },
        forms: [{ path: '/newsletter', type: 'newsletter' }],
        newsletter: { lists: [{ id: 'weekly', name: 'The weekly' }] },
      },
      temp.dir,
    );
    // The data folder `postbox serve` made.
    await mkdir(config.data_dir, { recursive: true });
    const file = path.join(temp.dir, 'people.csv');
    await writeFile(
      file,
      '\uFEFFEmail,Tags,Lang\r\n' +
        'ada@example.org,"Beta; VIP",en\r\n' +
        'ADA@example.org,early,\r\n' +
        'kept@example.org,new,\r\n' +
        'Gone@example.org,vip,\r\n' +
        'not an address,vip,\r\n' +
        'bob@example.org,,fr\r\n',
    );
    const command = parseSubscribersCommand(['import', file], { form: undefined, list: 'weekly', format: undefined }) as SubscribersCommand;
    assert.equal(command.importFile, file);
    const weekly = config.newsletter.lists.find((list) => list.id === 'weekly')!;
    const out: string[] = [];
    const backend = openBackend(config, createSilentLogger());
    try {
      await backend.ready();
      await backend.newsletter.join(weekly.log, 'kept@example.org', '2026-01-01T00:00:00.000Z');
      await backend.newsletter.setTags(weekly.log, 'kept@example.org', ['old'], '2026-01-02T00:00:00.000Z');
      await backend.newsletter.join(weekly.log, 'gone@example.org', '2026-01-01T00:00:00.000Z');
      await backend.newsletter.unsubscribe(weekly.log, 'gone@example.org', '2026-02-01T00:00:00.000Z');

      const io = (at: string) => ({ out: (text: string) => void out.push(text), error: (text: string) => void out.push(text), now: () => Date.parse(at) });
      const code = await runSubscribersCommand(command, config, backend, io('2026-11-29T12:00:00Z'));
      assert.equal(code, 0, out.join(''));
      assert.equal(
        out.join(''),
        `${file} into weekly: 2 added, 1 already subscribed with tags merged, 0 already subscribed unchanged, 1 not added (they unsubscribed), 0 not added (suppressed), 1 repeated rows merged, 1 rows without an address (lines 6)\n`,
      );
      const subscribers = await backend.newsletter.listSubscribers(weekly.log);
      const byEmail = new Map(subscribers.map((subscriber) => [subscriber.email, subscriber]));
      assert.deepEqual([...byEmail.keys()].sort(), ['ada@example.org', 'bob@example.org', 'kept@example.org']);
      assert.deepEqual(byEmail.get('ada@example.org'), { email: 'ada@example.org', subscribed_at: '2026-11-29T12:00:00.000Z', signed_up_at: '2026-11-29T12:00:00.000Z', source: 'import', lang: 'en', tags: ['beta', 'early', 'vip'] });
      assert.deepEqual(byEmail.get('bob@example.org'), { email: 'bob@example.org', subscribed_at: '2026-11-29T12:00:00.000Z', signed_up_at: '2026-11-29T12:00:00.000Z', source: 'import', lang: 'fr' });
      assert.deepEqual(byEmail.get('kept@example.org')?.tags, ['new', 'old']);
      assert.equal(byEmail.get('kept@example.org')?.source, undefined, 'an existing subscription keeps its own source');

      out.length = 0;
      await runSubscribersCommand(command, config, backend, io('2026-11-29T13:00:00Z'));
      assert.match(out.join(''), /: 0 added, 0 already subscribed with tags merged, 3 already subscribed unchanged, 1 not added \(they unsubscribed\)/, 'a second import changes nothing');
    } finally {
      await backend.close();
    }
  } finally {
    await temp.remove();
  }
}

describe('subscribers import', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  it('adds the new addresses as imported with their tags, merges the rest, and never puts back one that left (files)', () => importCase(undefined));

  it('does the same with PostgreSQL', async () => importCase({ backend: 'postgres', url: await postgres.createDatabase('subscribers_import') }));

  it('needs a list and one file', () => {
    assert.deepEqual(parseSubscribersCommand(['import'], { form: undefined, list: 'weekly', format: undefined }), { problem: 'subscribers import needs one FILE' });
    assert.deepEqual(parseSubscribersCommand(['import', 'a.csv'], { form: undefined, list: undefined, format: undefined }), { problem: 'subscribers import needs --form PATH or --list ID' });
  });
});
