// content_dir opened as a git repository (docs/admin.md "Posts in git"), with the real git program: a plain folder
// becomes one (its posts in a first commit, on the configured branch), a new replica starts as a checkout of the
// remote and never overwrites a file of its own, a repository on another branch or with another origin is refused,
// and a commit holds exactly the files of its change: what the owner staged or changed by hand stays theirs.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openContentRepository, type ContentRepository } from '../../../src/adapters/git/content-repository.js';
import { createGitRunner } from '../../../src/adapters/git/git-command.js';
import { createTestClock } from '../../support/clock.js';
import { cloneRemote, commitsOf, createBareRemote, fileAt, git, OWNER, writeFiles } from '../../support/git-repos.js';
import { withTempDir } from '../../support/temp-dir.js';

const POSTBOX = { name: 'Postbox', email: 'postbox@postbox.invalid' };
const JANE = { name: 'jane', email: 'jane@example.org' };
const clock = createTestClock();
const open = (contentDir: string, remote?: string, branch = 'main') => openContentRepository({ contentDir, remote, branch, committer: POSTBOX }, createGitRunner(), clock);

/** Stages and commits `files` (relative to content_dir) as one change of `author`. */
async function commitChange(repository: ContentRepository, files: string[], message: string, author = JANE): Promise<string[]> {
  const staged = await repository.stage(files);
  if (staged.length > 0) await repository.commit(staged, message, author, clock());
  return staged;
}

describe('the content repository', () => {
  it('makes a plain folder a repository on the configured branch, its posts in a first commit by Postbox', () =>
    withTempDir('git-open', async (dir) => {
      const contentDir = path.join(dir, 'posts');
      await writeFiles(contentDir, { 'hello.md': '+++\ntitle = "Hello"\n+++\n', 'trip/index.md': '+++\ntitle = "Trip"\n+++\n' });
      const repository = await open(contentDir, undefined, 'site');
      assert.equal(repository.prefix, '');
      assert.equal((await git(contentDir, ['symbolic-ref', '--short', 'HEAD'])).trim(), 'site');
      const [first, ...others] = await commitsOf(contentDir, 5, 'site');
      assert.deepEqual(others, []);
      assert.equal(first!.author, 'Postbox');
      assert.equal(first!.message, 'Start the history of the posts');
      assert.deepEqual(first!.files.sort(), ['hello.md', 'trip/index.md']);
      // Opening it again changes nothing.
      await open(contentDir, undefined, 'site');
      assert.equal((await commitsOf(contentDir, 5, 'site')).length, 1);
    }));

  it('starts a new replica as a checkout of the remote, and stops rather than overwrite a file of its own', () =>
    withTempDir('git-replica', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': 'from the remote\n' });
      const fresh = path.join(dir, 'fresh');
      await mkdir(fresh);
      const repository = await open(fresh, remote);
      assert.equal(await readFile(path.join(fresh, 'hello.md'), 'utf8'), 'from the remote\n');
      assert.deepEqual(await repository.divergence(), { ahead: 0, behind: 0 });
      assert.equal((await commitsOf(fresh, 5)).length, 1, 'no commit of its own');

      const crowded = path.join(dir, 'crowded');
      await writeFiles(crowded, { 'hello.md': 'mine, never committed\n' });
      await assert.rejects(open(crowded, remote), /cannot take the remote's "main".*hello\.md/s);
      assert.equal(await readFile(path.join(crowded, 'hello.md'), 'utf8'), 'mine, never committed\n');
    }));

  it('refuses a repository on another branch, or whose origin is another remote', () =>
    withTempDir('git-refuse', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': 'x\n' });
      const clone = await cloneRemote(remote, path.join(dir, 'clone'));
      await assert.rejects(open(clone, remote, 'drafts'), /is on the branch "main", and blog\.git\.branch is "drafts"/);
      await assert.rejects(open(clone, path.join(dir, 'other.git')), /remote "origin" is .*remote\.git, and blog\.git\.remote is .*other\.git/);
      await open(clone, remote);
    }));

  it('commits exactly the files of a change, by its author and committed by Postbox; the owner\u2019s work stays uncommitted', () =>
    withTempDir('git-stage', async (dir) => {
      const remote = await createBareRemote(dir, { 'hello.md': 'one\n', 'notes.md': 'notes\n', 'old.md': 'old\n' });
      const clone = await cloneRemote(remote, path.join(dir, 'clone'));
      const repository = await open(clone, remote);
      // The owner's own work: one file staged, one changed and not staged, one new and untracked.
      await writeFile(path.join(clone, 'notes.md'), 'notes, staged by the owner\n');
      await git(clone, ['add', 'notes.md']);
      await writeFile(path.join(clone, 'old.md'), 'old, changed by hand\n');
      await writeFile(path.join(clone, 'idea.md'), 'an idea\n');

      await writeFile(path.join(clone, 'hello.md'), 'two\n');
      assert.deepEqual(await commitChange(repository, ['hello.md'], 'Edit hello.md'), ['hello.md']);
      const [commit] = await commitsOf(clone, 1);
      assert.deepEqual(commit, { ...commit!, author: 'jane', authorEmail: 'jane@example.org', committer: 'Postbox', message: 'Edit hello.md', files: ['hello.md'] });
      const status = await git(clone, ['status', '--porcelain']);
      assert.match(status, /^M {2}notes\.md$/m, 'still staged, not committed');
      assert.match(status, /^ M old\.md$/m);
      assert.match(status, /^\?\? idea\.md$/m);

      // Nothing changed: no commit.
      assert.deepEqual(await commitChange(repository, ['hello.md'], 'Edit hello.md'), []);
      assert.equal((await commitsOf(clone, 10)).length, 2);
    }));

  it('records moves, removed files and removed folders; a file names itself literally, never as a pattern', () =>
    withTempDir('git-moves', async (dir) => {
      const contentDir = path.join(dir, 'posts');
      await writeFiles(contentDir, { 'hello.md': 'hello\n', 'hello.fr.md': 'bonjour\n', 'trip/index.md': 'trip\n', 'trip/a.png': 'png', '*.md': 'a star\n' });
      const repository = await open(contentDir);
      await writeFiles(contentDir, { 'hello.md': null, 'hello.fr.md': null, 'hello/index.md': 'hello\n', 'hello/index.fr.md': 'bonjour\n', 'hello/cat.png': 'png' });
      const moved = await commitChange(repository, ['hello.md', 'hello/index.md', 'hello.fr.md', 'hello/index.fr.md', 'hello/cat.png'], 'Upload image hello/cat.png');
      assert.deepEqual(moved.sort(), ['hello.fr.md', 'hello.md', 'hello/cat.png', 'hello/index.fr.md', 'hello/index.md']);
      await writeFiles(contentDir, { trip: null, '*.md': 'still a star\n' });
      assert.deepEqual((await commitChange(repository, ['trip'], 'Delete trip/index.md')).sort(), ['trip/a.png', 'trip/index.md']);
      assert.equal(await fileAt(contentDir, 'trip/index.md', 'HEAD'), undefined);
      assert.equal(await fileAt(contentDir, '*.md', 'HEAD'), 'a star\n', 'the star file was not part of the change');
      assert.match(await git(contentDir, ['status', '--porcelain']), /^ M "?\*\.md"?$/m);
    }));

  it('works in a folder of a larger repository: its paths carry the folder', () =>
    withTempDir('git-prefix', async (dir) => {
      const site = path.join(dir, 'site');
      await writeFiles(site, { 'README.md': 'the site\n', 'content/posts/hello.md': 'hello\n' });
      await git(site, ['init', '--quiet', '--initial-branch', 'main']);
      await git(site, ['add', '--', '.']);
      await git(site, ['commit', '--quiet', '-m', 'The site'], OWNER);
      const repository = await open(path.join(site, 'content', 'posts'));
      assert.equal(repository.prefix, 'content/posts/');
      assert.equal(repository.repoPath('hello.md'), 'content/posts/hello.md');
      await writeFile(path.join(site, 'content', 'posts', 'hello.md'), 'hello again\n');
      assert.deepEqual(await commitChange(repository, ['hello.md'], 'Edit content/posts/hello.md'), ['content/posts/hello.md']);
      const history = await repository.log('hello.md', 10);
      assert.deepEqual(
        history.map((entry) => [entry.author, entry.subject, entry.file]),
        [
          ['jane', 'Edit content/posts/hello.md', 'hello.md'],
          ['Olive Owner', 'The site', 'hello.md'],
        ],
      );
      assert.equal(await repository.show(history[1]!.id, 'hello.md'), 'hello\n');
      assert.equal(await repository.show(history[1]!.id, 'nothing.md'), undefined);
    }));
});
