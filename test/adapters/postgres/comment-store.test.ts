// The blog's comments in PostgreSQL (src/adapters/postgres/comment-store.ts) on a real server: the CommentStore
// contract, with the store opened again as a second replica's pool, migration 9 making its tables, and
// `postbox migrate --from-files` copying data_dir/comments once however often it runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCommentFiles } from '../../../src/adapters/files/comment-files.js';
import { createPostgresCommentStore, importCommentsFromFiles } from '../../../src/adapters/postgres/comment-store.js';
import { createPostgresCommentMailStore } from '../../../src/adapters/postgres/comment-mail-store.js';
import { randomBytes } from 'node:crypto';
import { commentMailStoreContract } from '../../support/comment-mail-store-contract.js';
import type { Config } from '../../../src/config/config.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { commentStoreContract, storedComment } from '../../support/comment-store-contract.js';
import { inboxWebmention } from '../../support/webmention-inbox-contract.js';
import { importWebmentionsFromFiles } from '../../../src/adapters/postgres/import-webmentions.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { createTempDir } from '../../support/temp-dir.js';

describe('comments in PostgreSQL', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await postgres?.close();
  });

  async function openState(url: string): Promise<PostgresState> {
    const state = createPostgresState(url, captureLogs().logger);
    states.push(state);
    await state.migrated();
    return state;
  }

  commentStoreContract(async () => {
    databases += 1;
    const url = await postgres.createDatabase(`comments_${databases}`);
    const store = createPostgresCommentStore(await openState(url));
    return { store, reopen: async () => createPostgresCommentStore(await openState(url)) };
  });

  describe('reply subscribers and mail tokens (migration 10)', () => {
    commentMailStoreContract(async () => {
      databases += 1;
      const url = await postgres.createDatabase(`comments_${databases}`);
      const claim = () => randomBytes(8).toString('hex');
      return { store: createPostgresCommentMailStore(await openState(url), claim), reopen: async () => createPostgresCommentMailStore(await openState(url), claim) };
    });
  });

  it('is migration 9, "blog comments"', async () => {
    assert.equal(MIGRATIONS.find((candidate) => candidate.version === 9)?.name, 'blog comments');
    databases += 1;
    const state = await openState(await postgres.createDatabase(`comments_${databases}`));
    const { rows } = await state.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 9');
    assert.deepEqual(rows, [{ name: 'blog comments' }]);
  });

  it('copies the webmentions received and the record of those sent with migrate --from-files, once', async () => {
    const temp = await createTempDir('webmentions-import');
    try {
      const files = createCommentFiles(temp.dir);
      await files.webmentions.receive(inboxWebmention(1));
      await files.webmentions.receive(inboxWebmention(2));
      await files.webmentions.claim(1, Date.UTC(2026, 10, 29, 13));
      await files.webmentions.settle(inboxWebmention(1).id, { status: 'refused', reason: 'The source is gone (410).' });
      assert.deepEqual(await files.sentWebmentions.take('hello@en', 'c1', ['https://a.example/', 'https://b.example/']), ['https://a.example/', 'https://b.example/']);
      databases += 1;
      const state = await openState(await postgres.createDatabase(`comments_${databases}`));
      const config = { data_dir: temp.dir } as Config;
      assert.deepEqual(await importWebmentionsFromFiles(temp.dir, config, state), { copied: 4, skipped: 0 });
      assert.deepEqual(await importWebmentionsFromFiles(temp.dir, config, state), { copied: 0, skipped: 4 });
      const store = createPostgresCommentStore(state);
      assert.deepEqual(await store.webmentions.status(inboxWebmention(1).id), { status: 'refused', reason: 'The source is gone (410).' });
      assert.deepEqual(await store.webmentions.claim(5, Date.UTC(2026, 10, 29, 13)), [inboxWebmention(2)]);
      assert.deepEqual(await store.sentWebmentions.take('hello@en', 'c1', ['https://a.example/', 'https://c.example/']), ['https://c.example/']);
    } finally {
      await temp.remove();
    }
  });

  it('stamps each version\'s comments: a new stamp on every add, status change, edit and removal, on every replica (migration 20)', async () => {
    assert.equal(MIGRATIONS.find((candidate) => candidate.version === 20)?.name, 'blog comment thread stamps');
    databases += 1;
    const url = await postgres.createDatabase(`comments_${databases}`);
    const store = createPostgresCommentStore(await openState(url));
    const replica = createPostgresCommentStore(await openState(url));
    const hello = { slug: 'hello', lang: 'en' };
    const other = { slug: 'other', lang: 'en' };
    const stamps: string[] = [await replica.threadStamp!(hello)];
    const changed = async (what: string) => {
      const stamp = await replica.threadStamp!(hello);
      assert.ok(!stamps.includes(stamp), `${what}: a new stamp, not one of ${stamps.join(', ')}`);
      stamps.push(stamp);
    };
    await store.add(storedComment('hello', 'c1', 1));
    await changed('added');
    await store.setStatus(hello, 'c1', 'published');
    await changed('published');
    await store.edit(hello, 'c1', 'new text', '<p>new text</p>');
    await changed('edited');
    await store.add(storedComment('other', 'o1', 2));
    await store.setStatus(other, 'o1', 'spam');
    await store.remove(other, 'o1');
    await store.listVersion(hello);
    await store.setStatus(hello, 'missing', 'spam');
    assert.equal(await replica.threadStamp!(hello), stamps.at(-1), 'unchanged by reads, by other versions and by a change of nothing');
    assert.ok(await store.remove(hello, 'c1'));
    await changed('removed');
    assert.equal(await replica.threadStamp!({ slug: 'hello', lang: 'de' }), '0', 'a version without comments');
  });

  it('copies data_dir/comments with migrate --from-files, once however often it runs', async () => {
    const temp = await createTempDir('comments-import');
    try {
      const files = createCommentFiles(temp.dir);
      await files.add(storedComment('hello', 'a1', 1, { status: 'published' }));
      await files.add(storedComment('hello', 'b2', 2, { parent: 'a1', email: null, reasons: ['links'], status: 'spam' }));
      await files.add(storedComment('other', 'c3', 3, { lang: 'de' }));
      await files.addApprovedAddress('Ada@example.org');
      databases += 1;
      const state = await openState(await postgres.createDatabase(`comments_${databases}`));
      const config = { data_dir: temp.dir } as Config;
      assert.deepEqual(await importCommentsFromFiles(temp.dir, config, state), { copied: 3, skipped: 0 });
      assert.deepEqual(await importCommentsFromFiles(temp.dir, config, state), { copied: 0, skipped: 3 });
      const store = createPostgresCommentStore(state);
      assert.deepEqual(await store.listAll(), await files.listAll());
      assert.equal(await store.isApprovedAddress('ada@example.org'), true);
    } finally {
      await temp.remove();
    }
  });
});
