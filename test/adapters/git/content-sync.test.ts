// The change log over git (docs/admin.md "Posts in git"), with the real git program and a bare remote in a temp
// folder: a change is one commit by its author, pushed at once; a refused push replays onto the remote's commits
// (other lines both go through; the same lines: the remote's is kept and the change is `superseded`, kept under
// refs/postbox/superseded/); a remote that cannot be reached leaves the commit here with a warning, and the next
// sync pushes it; a sync takes in a person's own push; a burst of changes is one commit each, in turn; the
// periodic fetch runs on the injected timers.
import assert from 'node:assert/strict';
import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openContentRepository } from '../../../src/adapters/git/content-repository.js';
import { createContentSync, messageOf } from '../../../src/adapters/git/content-sync.js';
import { createGitRunner } from '../../../src/adapters/git/git-command.js';
import type { PostChange } from '../../../src/admin/posts/post-changes.js';
import type { Timers } from '../../../src/ports.js';
import { createTestClock } from '../../support/clock.js';
import { createFakeTimer } from '../../support/fake-timers.js';
import { cloneRemote, commitsOf, createBareRemote, fileAt, git, pushFromClone, writeFiles } from '../../support/git-repos.js';
import { captureLogs } from '../../support/log-capture.js';
import { withTempDir } from '../../support/temp-dir.js';

const POSTBOX = { name: 'Postbox', email: 'postbox@postbox.invalid' };
const POST = (lines: string[]) => `+++\ntitle = "Hello"\n+++\n\n${lines.join('\n\n')}\n`;
const FIRST = POST(['First paragraph.', 'Second paragraph.', 'Third paragraph.']);

/** A replica: its own clone of `remote` in `<dir>/<name>`, opened and with its change log. */
async function startReplica(dir: string, remote: string, name: string, options: { timers?: Timers; pullMs?: number } = {}) {
  const contentDir = path.join(dir, name);
  await mkdir(contentDir, { recursive: true });
  const clock = createTestClock();
  const logs = captureLogs();
  const repository = await openContentRepository({ contentDir, remote, branch: 'main', committer: POSTBOX }, createGitRunner(), clock);
  const sync = createContentSync({
    repository,
    logger: logs.logger,
    clock,
    identityOf: async (user) => (user === undefined ? POSTBOX : { name: user, email: `${user}@example.org` }),
    pullMs: options.pullMs ?? 0,
    timers: options.timers,
  });
  /** Writes `files` and records them as one change of `author`, in the log's turn as /admin does. */
  const change = (files: Record<string, string | null>, author = 'jane', action: PostChange['action'] = 'edit') =>
    sync.exclusive(async () => {
      await writeFiles(contentDir, files);
      return sync.record({ action, subject: Object.keys(files)[0]!, paths: Object.keys(files), author });
    });
  const text = (file: string) => readFile(path.join(contentDir, file), 'utf8');
  return { contentDir, repository, sync, logs, change, text };
}

describe('the change log over git', () => {
  it('names each change by what was done', () => {
    const repoPath = (file: string) => `posts/${file}`;
    assert.equal(messageOf({ action: 'edit', subject: 'hello.md' }, repoPath), 'Edit posts/hello.md');
    assert.equal(messageOf({ action: 'publish', subject: 'hello.md' }, repoPath), 'Publish posts/hello.md');
    assert.equal(messageOf({ action: 'delete', subject: 'hello/index.md' }, repoPath), 'Delete posts/hello/index.md');
    assert.equal(messageOf({ action: 'upload_image', subject: 'hello/cat.png' }, repoPath), 'Upload image posts/hello/cat.png');
    assert.equal(messageOf({ action: 'restore', subject: 'hello.md', restored: '1a2b3c4' }, repoPath), 'Restore posts/hello.md to 1a2b3c4');
  });

  it('commits a change as its author and pushes it at once; a change that alters nothing is no commit', () =>
    withTempDir('git-sync-push', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const replica = await startReplica(dir, remote, 'a');
      const edited = POST(['First paragraph, edited.', 'Second paragraph.', 'Third paragraph.']);
      assert.deepEqual(await replica.change({ 'hello.md': edited }), { ok: true });
      const [commit] = await commitsOf(remote, 1);
      assert.deepEqual(commit, { ...commit!, author: 'jane', authorEmail: 'jane@example.org', committer: 'Postbox', message: 'Edit hello.md', files: ['hello.md'] });
      assert.equal(await fileAt(remote, 'hello.md'), edited);
      assert.deepEqual(await replica.change({ 'hello.md': edited }), { ok: true });
      assert.equal((await commitsOf(remote, 10)).length, 2, 'the seed and the one edit');
      await replica.sync.close();
    }));

  it('replays a refused push on the remote\u2019s commits: changes to other lines both reach the remote', () =>
    withTempDir('git-sync-apart', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST, 'notes.md': 'notes\n' });
      const a = await startReplica(dir, remote, 'a');
      const b = await startReplica(dir, remote, 'b');
      // The owner's own work in b's folder, not committed: the replay keeps it as it is, and out of every commit.
      await writeFiles(b.contentDir, { 'notes.md': 'notes, changed by hand\n' });
      assert.deepEqual(await a.change({ 'hello.md': POST(['First, by Ann.', 'Second paragraph.', 'Third paragraph.']) }, 'ann'), { ok: true });
      // b has not seen ann's commit: its push is refused, then replayed on it.
      assert.deepEqual(await b.change({ 'hello.md': POST(['First paragraph.', 'Second paragraph.', 'Third, by Bob.']) }, 'bob'), { ok: true });
      const both = POST(['First, by Ann.', 'Second paragraph.', 'Third, by Bob.']);
      assert.equal(await fileAt(remote, 'hello.md'), both);
      assert.equal(await b.text('hello.md'), both, 'b serves both');
      assert.deepEqual((await commitsOf(remote, 2)).map((commit) => [commit.author, commit.committer]), [['bob', 'Postbox'], ['ann', 'Postbox']]);
      assert.equal(await b.text('notes.md'), 'notes, changed by hand\n');
      assert.equal(await fileAt(remote, 'notes.md'), 'notes\n');
      await a.sync.sync();
      assert.equal(await a.text('hello.md'), both, 'a takes in bob\u2019s at its next sync');
      await Promise.all([a.sync.close(), b.sync.close()]);
    }));

  it('keeps the remote\u2019s change when both changed the same lines: the later one is superseded and kept aside', () =>
    withTempDir('git-sync-clash', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST, 'other.md': 'other\n' });
      const a = await startReplica(dir, remote, 'a');
      const b = await startReplica(dir, remote, 'b');
      const ann = POST(['First paragraph.', 'Ann\u2019s second.', 'Third paragraph.']);
      assert.deepEqual(await a.change({ 'hello.md': ann }, 'ann'), { ok: true });
      assert.deepEqual(await b.change({ 'hello.md': POST(['First paragraph.', 'Bob\u2019s second.', 'Third paragraph.']) }, 'bob'), { ok: false, kind: 'superseded' });
      assert.equal(await fileAt(remote, 'hello.md'), ann, 'one winner in the remote');
      assert.equal(await b.text('hello.md'), ann, 'b serves the remote\u2019s text');
      assert.deepEqual(await b.repository.divergence(), { ahead: 0, behind: 0 });
      const kept = (await git(b.contentDir, ['for-each-ref', '--format=%(refname)', 'refs/postbox/superseded/'])).trim().split('\n');
      assert.equal(kept.length, 1);
      assert.match(await git(b.contentDir, ['show', `${kept[0]}:hello.md`]), /Bob’s second/, 'bob\u2019s commit is not lost');
      assert.ok(b.logs.lines().some((line) => line.event === 'content_change_superseded' && line.level === 40));
      // b goes on as usual afterwards.
      assert.deepEqual(await b.change({ 'other.md': 'other, by Bob\n' }, 'bob'), { ok: true });
      assert.equal(await fileAt(remote, 'other.md'), 'other, by Bob\n');
      await Promise.all([a.sync.close(), b.sync.close()]);
    }));

  it('leaves a commit here with a warning while the remote cannot be reached, and pushes it at the next attempt', () =>
    withTempDir('git-sync-down', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const replica = await startReplica(dir, remote, 'a');
      await rename(remote, `${remote}.away`);
      const offline = POST(['Written while the remote was away.']);
      assert.deepEqual(await replica.change({ 'hello.md': offline }), { ok: true });
      assert.equal(await replica.text('hello.md'), offline);
      const warned = replica.logs.lines().filter((line) => line.event === 'content_push_failed');
      assert.equal(warned.length, 1);
      assert.equal(warned[0]!.level, 40);
      await replica.sync.sync();
      assert.equal(replica.logs.lines().filter((line) => line.level === 40).length, 1, 'a sync while still away warns no more');
      assert.deepEqual(await replica.repository.divergence(), { ahead: 1, behind: 0 });

      await rename(`${remote}.away`, remote);
      await replica.sync.sync();
      assert.equal(await fileAt(remote, 'hello.md'), offline);
      assert.ok(replica.logs.lines().some((line) => line.event === 'content_remote_reachable'));
      await replica.sync.close();
    }));

  it('takes in a person\u2019s own push at the next sync, files and all', () =>
    withTempDir('git-sync-pull', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const replica = await startReplica(dir, remote, 'a');
      const clone = await cloneRemote(remote, path.join(dir, 'laptop'));
      await pushFromClone(clone, { 'hello.md': POST(['Edited on a laptop.']), 'new.md': POST(['New from the laptop.']), }, 'Write on the train');
      await replica.sync.sync();
      assert.equal(await replica.text('hello.md'), POST(['Edited on a laptop.']));
      assert.equal(await replica.text('new.md'), POST(['New from the laptop.']));
      assert.ok(replica.logs.lines().some((line) => line.event === 'content_pulled' && line.commits === 1));
      await replica.sync.close();
    }));

  it('never overwrites a file changed here by hand: the fast-forward waits, with one warning, until it is undone', () =>
    withTempDir('git-sync-blocked', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const replica = await startReplica(dir, remote, 'a');
      await writeFiles(replica.contentDir, { 'hello.md': POST(['Changed here by hand, not committed.']) });
      const clone = await cloneRemote(remote, path.join(dir, 'laptop'));
      await pushFromClone(clone, { 'hello.md': POST(['From the laptop.']) }, 'Laptop');
      await replica.sync.sync();
      await replica.sync.sync();
      assert.equal(await replica.text('hello.md'), POST(['Changed here by hand, not committed.']));
      assert.equal(replica.logs.lines().filter((line) => line.event === 'content_pull_blocked').length, 1);
      await git(replica.contentDir, ['checkout', '--', 'hello.md']);
      await replica.sync.sync();
      assert.equal(await replica.text('hello.md'), POST(['From the laptop.']));
      await replica.sync.close();
    }));

  it('makes a burst of changes one commit each, in turn, all pushed', () =>
    withTempDir('git-sync-burst', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const replica = await startReplica(dir, remote, 'a');
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, index) => replica.change({ [`post-${index}.md`]: POST([`Post ${index}.`]) }, `user${index}`, 'create')));
      assert.ok(outcomes.every((outcome) => outcome.ok));
      const commits = await commitsOf(remote, 20);
      assert.equal(commits.length, 9);
      for (const commit of commits.slice(0, 8)) {
        assert.equal(commit.files.length, 1, 'one file a commit');
        assert.equal(commit.message, `Create ${commit.files[0]}`);
        assert.equal(commit.author, `user${/post-(\d)\.md/.exec(commit.files[0]!)![1]}`);
      }
      await replica.sync.close();
    }));

  it('fetches every pull interval on the timers it is given, and stops when closed', () =>
    withTempDir('git-sync-timer', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': FIRST });
      const time = createFakeTimer(0);
      const replica = await startReplica(dir, remote, 'a', { timers: time, pullMs: 250 });
      assert.deepEqual(time.pending(), [250]);
      const clone = await cloneRemote(remote, path.join(dir, 'laptop'));
      await pushFromClone(clone, { 'hello.md': POST(['From the laptop.']) }, 'Laptop');
      await time.advance(250);
      await replica.sync.sync();
      assert.equal(await replica.text('hello.md'), POST(['From the laptop.']));
      await time.until('armed again after the fetch', () => (time.pending().length > 0 ? time.pending() : undefined));
      assert.deepEqual(time.pending(), [500]);
      await replica.sync.close();
      assert.deepEqual(time.pending(), [], 'cleared when closed');
    }));
});
