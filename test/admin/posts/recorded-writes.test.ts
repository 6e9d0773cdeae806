// Every write of the post files recorded as one change (docs/admin.md "Posts in git"), through a change log that
// records in memory: what each operation names (its action, the files it touched, whom by), nothing for a write
// that changed nothing or was refused, every write inside the log's own turn, and a change the log answers
// `superseded` turned into the page's terms: a save's conflict with the typed text as "mine" and the file now as
// "theirs".
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { PostChange, PostChangeLog, RecordOutcome } from '../../../src/admin/posts/post-changes.js';
import { createPostFiles, type PostFiles } from '../../../src/admin/posts/post-files.js';
import { versionToken } from '../../../src/admin/posts/version-token.js';
import { createTestClock } from '../../support/clock.js';
import { withTempDir } from '../../support/temp-dir.js';
import { samples } from './image-samples.js';

const HELLO = '+++\ntitle = "Hello"\ndate = 2024-05-01\n+++\n\nFirst words.\n';

interface MemoryLog extends PostChangeLog {
  changes: PostChange[];
  /** Whether a write ran outside `exclusive` (it never should). */
  outside: boolean;
  /** What `record` answers next, and what it writes first (the remote's text of a superseded change). */
  next?: { outcome: RecordOutcome; write?: Record<string, string> };
  running: number;
}

function memoryLog(contentDir: string): MemoryLog {
  let tail: Promise<unknown> = Promise.resolve();
  const log: MemoryLog = {
    changes: [],
    outside: false,
    running: 0,
    exclusive(task) {
      const run = tail.then(async () => {
        log.running += 1;
        try {
          return await task();
        } finally {
          log.running -= 1;
        }
      });
      tail = run.catch(() => undefined);
      return run;
    },
    async record(change) {
      if (log.running !== 1) log.outside = true;
      log.changes.push(change);
      const next = log.next;
      log.next = undefined;
      for (const [file, text] of Object.entries(next?.write ?? {})) await writeFile(path.join(contentDir, file), text);
      return next?.outcome ?? { ok: true };
    },
  };
  return log;
}

async function withRecordedPosts(body: (fixture: { posts: PostFiles; log: MemoryLog; contentDir: string }) => Promise<void>): Promise<void> {
  await withTempDir('recorded-writes', async (root) => {
    const contentDir = path.join(root, 'posts');
    await mkdir(contentDir);
    await writeFile(path.join(contentDir, 'hello.md'), HELLO);
    const log = memoryLog(contentDir);
    const posts = createPostFiles({ contentDir, trashDir: path.join(root, 'trash'), clock: createTestClock(), changes: log });
    await body({ posts, log, contentDir });
    assert.equal(log.outside, false, 'every change was recorded inside the log\u2019s turn');
  });
}

const opened = async (posts: PostFiles, file: string) => {
  const outcome = await posts.read(file);
  assert.ok(outcome.ok);
  return outcome.post;
};

describe('writes recorded as changes', () => {
  it('records each operation once, by what it did, the files it touched and the person', () =>
    withRecordedPosts(async ({ posts, log }) => {
      const jane = posts.by('jane');
      const hello = await opened(jane, 'hello.md');
      assert.ok((await jane.save({ file: 'hello.md', version: hello.version, fields: hello.fields, body: 'Second words.\n' })).ok);
      const again = await opened(jane, 'hello.md');
      assert.ok((await jane.save({ file: 'hello.md', version: again.version, fields: again.fields, body: again.body })).ok, 'an unchanged save');
      assert.ok((await jane.setDraft('hello.md', true)).ok);
      const draft = await opened(jane, 'hello.md');
      assert.ok((await jane.save({ file: 'hello.md', version: draft.version, fields: { ...draft.fields, draft: false }, body: 'Third.\n', action: 'publish' })).ok);
      assert.ok((await jane.create({ ...jane.newPostFields(), title: 'Trip', slug: 'trip', draft: true }, 'Off.\n')).ok);
      assert.ok((await jane.addTranslation('hello.md', 'fr')).ok);
      const stored = await jane.storeImage('hello.md', 'cat.png', samples.png, 1024);
      assert.ok(stored.ok);
      assert.ok((await jane.deleteImage('hello/index.md', stored.fileName)).ok);
      const folder = await opened(jane, 'hello/index.md');
      assert.ok((await jane.restore('hello/index.md', folder.version, HELLO, '1a2b3c4')).ok);
      assert.ok((await posts.remove('trip.md')).ok, 'a change of nobody in particular');

      assert.deepEqual(
        log.changes.map((change) => [change.action, change.subject, [...change.paths].sort(), change.author, change.restored]),
        [
          ['edit', 'hello.md', ['hello.md'], 'jane', undefined],
          ['unpublish', 'hello.md', ['hello.md'], 'jane', undefined],
          ['publish', 'hello.md', ['hello.md'], 'jane', undefined],
          ['create', 'trip.md', ['trip.md'], 'jane', undefined],
          ['translate', 'hello.fr.md', ['hello.fr.md'], 'jane', undefined],
          ['upload_image', 'hello/cat.png', ['hello.fr.md', 'hello.md', 'hello/cat.png', 'hello/index.fr.md', 'hello/index.md'], 'jane', undefined],
          ['delete_image', 'hello/cat.png', ['hello/cat.png'], 'jane', undefined],
          ['restore', 'hello/index.md', ['hello/index.md'], 'jane', '1a2b3c4'],
          ['delete', 'trip.md', ['trip.md'], undefined, undefined],
        ],
      );
    }));

  it('records nothing for a refused write, and the folder itself when its last version is deleted', () =>
    withRecordedPosts(async ({ posts, log, contentDir }) => {
      const hello = await opened(posts, 'hello.md');
      const stale = await posts.save({ file: 'hello.md', version: 'not-the-version', fields: hello.fields, body: 'x\n' });
      assert.ok(!stale.ok && stale.kind === 'conflict');
      assert.ok(!(await posts.by('jane').withAccess(() => false).save({ file: 'hello.md', version: hello.version, fields: hello.fields, body: 'y\n' })).ok);
      assert.equal(log.changes.length, 0);
      await mkdir(path.join(contentDir, 'trip'));
      await writeFile(path.join(contentDir, 'trip', 'index.md'), HELLO.replace('Hello', 'Trip'));
      assert.ok((await posts.remove('trip/index.md')).ok);
      assert.deepEqual(log.changes.map((change) => [change.action, change.subject, change.paths]), [['delete', 'trip/index.md', ['trip']]]);
    }));

  it('answers a superseded save as the conflict page\u2019s outcome: the typed text as mine, the file now as theirs', () =>
    withRecordedPosts(async ({ posts, log, contentDir }) => {
      const hello = await opened(posts, 'hello.md');
      const theirs = HELLO.replace('First words.', 'The remote\u2019s words.');
      log.next = { outcome: { ok: false, kind: 'superseded' }, write: { 'hello.md': theirs } };
      const outcome = await posts.by('jane').save({ file: 'hello.md', version: hello.version, fields: hello.fields, body: 'My words.\n' });
      assert.deepEqual(outcome, { ok: false, kind: 'conflict', mine: HELLO.replace('First words.', 'My words.'), theirs, theirsVersion: versionToken(theirs), merged: null });
      assert.equal(await readFile(path.join(contentDir, 'hello.md'), 'utf8'), theirs, 'the file is the remote\u2019s');
    }));

  it('gives a save the version of the file as recording left it (others\u2019 lines taken in)', () =>
    withRecordedPosts(async ({ posts, log }) => {
      const hello = await opened(posts, 'hello.md');
      const both = HELLO.replace('title = "Hello"', 'title = "Hello, retitled elsewhere"').replace('First words.', 'My words.');
      log.next = { outcome: { ok: true }, write: { 'hello.md': both } };
      const outcome = await posts.save({ file: 'hello.md', version: hello.version, fields: hello.fields, body: 'My words.\n' });
      assert.ok(outcome.ok);
      assert.equal(outcome.version, versionToken(both));
    }));

  it('runs a burst of saves one at a time inside the log\u2019s turn', () =>
    withRecordedPosts(async ({ posts, log, contentDir }) => {
      for (let index = 0; index < 6; index += 1) await writeFile(path.join(contentDir, `p${index}.md`), HELLO);
      const saves = await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          const post = await opened(posts, `p${index}.md`);
          return posts.by(`user${index}`).save({ file: `p${index}.md`, version: post.version, fields: post.fields, body: `Words of ${index}.\n` });
        }),
      );
      assert.ok(saves.every((outcome) => outcome.ok));
      assert.deepEqual(log.changes.map((change) => change.author).sort(), ['user0', 'user1', 'user2', 'user3', 'user4', 'user5']);
    }));
});
