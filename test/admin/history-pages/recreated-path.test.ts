// The History of a post whose file name a deleted post had (docs/admin.md "Posts in git"): `git log --follow`
// of the path would list the deleted post's versions too, another person's words. Only the versions since the
// path was last created are listed, and only those can be opened or restored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitsOf, git } from '../../support/git-repos.js';
import { startGitAdmin, type GitAdmin } from './git-admin.js';

const BOBS = '+++\ntitle = "Plans"\ndate = 2024-05-01\nauthor = "bob"\n+++\n\nBob\'s secret plans.\n';

describe('the History of a file name used again', () => {
  let admin: GitAdmin;
  before(async () => {
    admin = await startGitAdmin({ 'plans.md': BOBS });
  });
  after(() => admin.close());

  it("lists only the new post's versions, not the deleted post's", async () => {
    await git(admin.contentDir, ['rm', '-q', 'plans.md']);
    await git(admin.contentDir, ['commit', '-q', '-m', 'Delete plans.md']);
    const bobsVersion = (await commitsOf(admin.contentDir, 10)).at(-1)!.id;

    const ann = await admin.as('ann');
    admin.clock.advance(60_000);
    const created = await ann.post('/admin/posts/new', { title: 'Plans', slug: 'plans', date: '2024-05-02', body: 'Ann\u2019s own plans.\n' });
    assert.equal(created.statusCode, 303, created.body);

    const page = await ann.get('/admin/posts/history?file=plans.md');
    assert.equal(page.statusCode, 200);
    const rows = [...page.body.matchAll(/<tr><td><time datetime="[^"]+">[^<]*<\/time><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((match) => match.slice(1));
    assert.deepEqual(rows, [['ann', 'Create plans.md']]);
    assert.doesNotMatch(page.body, new RegExp(bobsVersion.slice(0, 7)));

    const old = await ann.get(`/admin/posts/history/version?file=plans.md&id=${bobsVersion}`);
    assert.equal(old.statusCode, 404, 'a version of the deleted post is not in this post\'s history');
    assert.doesNotMatch(old.body, /secret plans/);
  });
});
