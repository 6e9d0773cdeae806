// The git program driven without a shell (docs/admin.md "Posts in git"): an argument is passed as it is (a message
// with quotes and `$(...)` is a message), a failure is a result with git's words, a log line never carries a
// remote's password, and git older than 2.30 is told apart.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createGitRunner, GitError, gitOrThrow, gitReason, isRecentEnough, parseGitVersion } from '../../../src/adapters/git/git-command.js';
import { withTempDir } from '../../support/temp-dir.js';

describe('the git command', () => {
  it('passes every argument as it is, through no shell', () =>
    withTempDir('git-args', async (dir) => {
      const run = createGitRunner();
      await gitOrThrow(run, dir, ['init', '--quiet']);
      const message = 'Edit "x"; $(touch pwned) `touch pwned2` && echo';
      await gitOrThrow(run, dir, ['-c', 'commit.gpgsign=false', 'commit', '--quiet', '--allow-empty', '-m', message], {
        env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.org', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.org' },
      });
      assert.equal((await gitOrThrow(run, dir, ['log', '-1', '--format=%s'])).trim(), message);
      assert.equal(existsSync(path.join(dir, 'pwned')), false);
      assert.equal(existsSync(path.join(dir, 'pwned2')), false);
    }));

  it('answers a failure as a result, and GitError names the command and git\u2019s words', () =>
    withTempDir('git-fail', async (dir) => {
      const run = createGitRunner();
      const result = await run(dir, ['rev-parse', '--show-toplevel']);
      assert.notEqual(result.code, 0);
      await assert.rejects(gitOrThrow(run, dir, ['rev-parse', '--show-toplevel']), (error: unknown) => error instanceof GitError && /git rev-parse failed \(exit 128\): fatal: not a git repository/.test(error.message));
    }));

  it('keeps the user name and password of a URL out of what is logged', () => {
    const stderr = "remote: denied\nfatal: unable to access 'https://ci-bot:ghp_SECRET123@git.example.com/site.git/': The requested URL returned error: 403\n";
    const reason = gitReason(stderr);
    assert.doesNotMatch(reason, /SECRET|ci-bot/);
    assert.match(reason, /^fatal: unable to access 'https:\/\/\*\*\*@git\.example\.com\/site\.git\/'/);
    assert.equal(gitReason(''), '');
    assert.equal(gitReason('just one line'), 'just one line');
  });

  it('tells git 2.30 and newer from older ones', () => {
    assert.deepEqual(parseGitVersion('git version 2.39.5\n'), [2, 39]);
    assert.deepEqual(parseGitVersion('git version 2.30.0.windows.1'), [2, 30]);
    assert.equal(parseGitVersion('nonsense'), undefined);
    assert.equal(isRecentEnough([2, 30]), true);
    assert.equal(isRecentEnough([3, 0]), true);
    assert.equal(isRecentEnough([2, 29]), false);
    assert.equal(isRecentEnough([1, 99]), false);
  });
});
