// [blog.git] as `serve` wires it (app/git-content.ts; docs/admin.md "Posts in git"): nothing without
// `enabled = true`; a change of a user is authored with the address of their account, else
// <name>@users.postbox.invalid (a name that is no address part made one), and a change of nobody by Postbox.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { StoredAccount } from '../../src/admin/accounts/account.js';
import { composeGitContent } from '../../src/app/git-content.js';
import { testHash } from '../admin/admin-app.js';
import { createTestClock } from '../support/clock.js';
import { loadTestConfig } from '../support/config.js';
import { commitsOf, writeFiles } from '../support/git-repos.js';
import { captureLogs } from '../support/log-capture.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { withTempDir } from '../support/temp-dir.js';

describe('the posts repository of serve', () => {
  it('is not opened unless enabled', () =>
    withTempDir('git-content-off', async (dir) => {
      await writeFiles(path.join(dir, 'posts'), { 'hello.md': 'x\n' });
      const config = loadTestConfig({ site: { title: 'S', base_url: 'https://example.com' }, blog: { content_dir: 'posts', git: { enabled: false } } }, dir);
      assert.equal(await composeGitContent(config, { backend: { accounts: createMemoryAccountStore() }, logger: captureLogs().logger, clock: createTestClock() }), undefined);
      await assert.rejects(readFile(path.join(dir, 'posts', '.git', 'HEAD')));
    }));

  it('authors each change as its person: the account\u2019s address, else one of users.postbox.invalid', () =>
    withTempDir('git-content-authors', async (dir) => {
      await writeFiles(path.join(dir, 'posts'), { 'hello.md': 'x\n' });
      const hash = await testHash();
      const config = loadTestConfig(
        { site: { title: 'S', base_url: 'https://example.com' }, blog: { content_dir: 'posts', git: { enabled: true } }, admin: { users: [{ name: 'Jane Doe', password_hash: hash }] } },
        dir,
      );
      const bob: StoredAccount = { name: 'bob', role: 'editor', email: 'bob@example.org', passwordHash: hash, generation: 0, passkeys: [], createdAt: 0 };
      const git = await composeGitContent(config, { backend: { accounts: createMemoryAccountStore([bob]) }, logger: captureLogs().logger, clock: createTestClock() });
      assert.ok(git);
      try {
        for (const [author, text] of [['bob', 'by bob\n'], ['Jane Doe', 'by jane\n'], [undefined, 'by nobody\n']] as const) {
          await git.changes.exclusive(async () => {
            await writeFiles(path.join(dir, 'posts'), { 'hello.md': text });
            return git.changes.record({ action: 'edit', subject: 'hello.md', paths: ['hello.md'], ...(author ? { author } : {}) });
          });
        }
        const commits = await commitsOf(path.join(dir, 'posts'), 3);
        assert.deepEqual(
          commits.map((commit) => `${commit.author} <${commit.authorEmail}> / ${commit.committer}`),
          ['Postbox <postbox@postbox.invalid> / Postbox', 'Jane Doe <Jane-Doe@users.postbox.invalid> / Postbox', 'bob <bob@example.org> / Postbox'],
        );
        const history = await git.history.entries('hello.md', 10);
        assert.deepEqual(history.map((entry) => entry.author), ['Postbox', 'Jane Doe', 'bob', 'Postbox']);
        assert.equal(await git.history.textAt(history[2]!.id, 'hello.md'), 'by bob\n');
        assert.equal(await git.history.textAt('not-an-id', 'hello.md'), undefined);
      } finally {
        await git.close();
      }
    }));
});
