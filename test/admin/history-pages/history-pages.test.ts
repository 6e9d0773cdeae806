// The History of a post in /admin over a real git repository (docs/admin.md "Posts in git"): every save through
// the editor is one commit by the signed-in person (their address, else <name>@users.postbox.invalid); the History
// lists each version's time, author and change; a version shows its text escaped (never rendered) and what changed
// since; "Restore this version" needs the CSRF token, refuses a file changed since, and makes one new commit; an id
// outside the post's own history is 404; an author opens only the history of their own posts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitsOf, git } from '../../support/git-repos.js';
import { fieldOf, startGitAdmin, type GitAdmin } from './git-admin.js';

const HELLO = '+++\ntitle = "Hello"\ndate = 2024-05-01\nauthor = "bob"\n+++\n\nFirst words <script>alert(1)</script>.\n\nA second paragraph.\n';
const OTHER = '+++\ntitle = "Other"\ndate = 2024-05-01\nauthor = "ann"\n+++\n\nAnn\u2019s.\n';

describe('the History pages', () => {
  let admin: GitAdmin;
  before(async () => {
    admin = await startGitAdmin({ 'hello.md': HELLO, 'other.md': OTHER });
  });
  after(() => admin.close());

  /** Saves `body` as the text of `file` through the editor, as `name`. */
  async function save(name: string, file: string, body: string) {
    const person = await admin.as(name);
    const editor = await person.get(`/admin/posts/edit?file=${encodeURIComponent(file)}`);
    assert.equal(editor.statusCode, 200);
    const answer = await person.post('/admin/posts/save', {
      file,
      version: fieldOf(editor.body, 'version'),
      base_text: fieldOf(editor.body, 'base_text'),
      title: 'Hello',
      date: '2024-05-01',
      author: 'bob',
      body,
    });
    assert.equal(answer.statusCode, 303, answer.body);
  }

  it('makes each save one commit by the signed-in person, and lists the versions with time, author and change', async () => {
    admin.clock.advance(60_000);
    await save('bob', 'hello.md', 'First words, edited by Bob.\n\nA second paragraph.\n');
    admin.clock.advance(60_000);
    await save('olga', 'hello.md', 'First words, edited by Bob.\n\nA second paragraph, by Olga.\n');
    const commits = await commitsOf(admin.contentDir, 10);
    assert.deepEqual(
      commits.map((commit) => [commit.author, commit.authorEmail, commit.committer, commit.message, commit.files]),
      [
        ['olga', 'olga@users.postbox.invalid', 'Postbox', 'Edit hello.md', ['hello.md']],
        ['bob', 'bob@example.org', 'Postbox', 'Edit hello.md', ['hello.md']],
        ['Postbox', 'postbox@postbox.invalid', 'Postbox', 'Start the history of the posts', ['hello.md', 'other.md']],
      ],
    );

    const bob = await admin.as('bob');
    const editor = await bob.get('/admin/posts/edit?file=hello.md');
    assert.match(editor.body, /<a href="\/admin\/posts\/history\?file=hello\.md">History<\/a>/);
    const page = await bob.get('/admin/posts/history?file=hello.md');
    assert.equal(page.statusCode, 200);
    const rows = [...page.body.matchAll(/<tr><td><time datetime="([^"]+)">[^<]*<\/time><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((match) => match.slice(1));
    assert.deepEqual(rows, [
      ['2024-05-01T12:02:00Z', 'olga', 'Edit hello.md'],
      ['2024-05-01T12:01:00Z', 'bob', 'Edit hello.md'],
      ['2024-05-01T12:00:00Z', 'Postbox', 'Start the history of the posts'],
    ]);
  });

  it('shows a version escaped with what changed since, and restores it as one new commit', async () => {
    const bob = await admin.as('bob');
    const first = (await commitsOf(admin.contentDir, 10)).at(-1)!;
    const url = `/admin/posts/history/version?file=hello.md&id=${first.id}`;
    const page = await bob.get(url);
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /<script>alert/);
    assert.match(page.body, /<pre class="admin-history-text">[^]*First words &lt;script>alert\(1\)&lt;\/script>\./);
    assert.match(page.body, /<strong class="admin-history-marker">removed<\/strong>First words &lt;script>/);
    assert.match(page.body, /<strong class="admin-history-marker">added<\/strong>A second paragraph, by Olga\./);
    const version = fieldOf(page.body, 'version');

    // No CSRF token, an id of no version of this post, and a file changed since: nothing is restored.
    const before = (await commitsOf(admin.contentDir, 20)).length;
    assert.equal((await bob.post('/admin/posts/history/restore', { file: 'hello.md', id: first.id, version }, false)).statusCode, 403);
    const otherId = (await git(admin.contentDir, ['rev-parse', 'HEAD'])).trim().replace(/./g, 'a');
    assert.equal((await bob.post('/admin/posts/history/restore', { file: 'hello.md', id: otherId, version })).statusCode, 404);
    assert.equal((await bob.get(`/admin/posts/history/version?file=hello.md&id=${otherId}`)).statusCode, 404);
    assert.equal((await bob.post('/admin/posts/history/restore', { file: 'hello.md', id: first.id, version: 'f'.repeat(64) })).statusCode, 409);
    assert.equal((await commitsOf(admin.contentDir, 20)).length, before);

    admin.clock.advance(60_000);
    const restored = await bob.post('/admin/posts/history/restore', { file: 'hello.md', id: first.id, version });
    assert.equal(restored.statusCode, 303);
    assert.equal(restored.headers.location, '/admin/posts/edit?file=hello.md&notice=restored');
    assert.equal(await readFile(path.join(admin.contentDir, 'hello.md'), 'utf8'), HELLO);
    const [commit] = await commitsOf(admin.contentDir, 1);
    assert.deepEqual([commit!.author, commit!.message, commit!.files], ['bob', `Restore hello.md to ${first.id.slice(0, 7)}`, ['hello.md']]);
    assert.equal((await commitsOf(admin.contentDir, 20)).length, before + 1);
    assert.ok(admin.logs.lines().some((line) => line.event === 'admin_post_restored' && line.user === 'bob' && line.file === 'hello.md'));
    // The new version is the history's newest.
    assert.match((await bob.get('/admin/posts/history?file=hello.md')).body, new RegExp(`Restore hello\\.md to ${first.id.slice(0, 7)}`));
  });

  it('shows an author only the history of their own posts', async () => {
    const ann = await admin.as('ann');
    assert.equal((await ann.get('/admin/posts/history?file=hello.md')).statusCode, 403);
    const first = (await commitsOf(admin.contentDir, 10)).at(-1)!;
    assert.equal((await ann.get(`/admin/posts/history/version?file=hello.md&id=${first.id}`)).statusCode, 403);
    assert.equal((await ann.get('/admin/posts/history?file=other.md')).statusCode, 200);
    assert.equal((await ann.get('/admin/posts/history?file=missing.md')).statusCode, 404);
  });
});
