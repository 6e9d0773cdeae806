// /admin/followers (docs/admin.md "Followers"): how many follow the blog on the fediverse and who, newest first, or
// that ActivityPub is off.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createFollowersPages } from '../../src/admin/followers-pages/followers-pages.js';
import { createActivityPubFiles } from '../../src/adapters/files/activitypub-files.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

describe('/admin/followers', () => {
  const apps: TestAdmin[] = [];
  const removes: Array<() => Promise<void>> = [];
  after(async () => {
    for (const app of apps) await app.close();
    for (const remove of removes) await remove();
  });

  const pageOf = async (pages: ReturnType<typeof createFollowersPages>) => {
    const { dir, remove } = await createTempDir('followers-pages');
    removes.push(remove);
    const app = await startTestAdmin({ dataDir: dir, pages });
    apps.push(app);
    const session = await signIn(app);
    return app.inject({ method: 'GET', url: '/admin/followers', headers: { cookie: session.cookie } });
  };

  it('counts the followers and lists them newest first with their server', async () => {
    const { dir, remove } = await createTempDir('followers-store');
    removes.push(remove);
    const store = createActivityPubFiles(dir);
    await store.addFollower({ id: 'https://one.example/users/ann', inbox: 'https://one.example/users/ann/inbox', sharedInbox: 'https://one.example/inbox' });
    await store.addFollower({ id: 'https://two.example/@bob', inbox: 'https://two.example/@bob/inbox', sharedInbox: null });
    const page = await pageOf(createFollowersPages({ store }));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<strong>2<\/strong> accounts follow the blog/);
    const bob = page.body.indexOf('https://two.example/@bob');
    const ann = page.body.indexOf('https://one.example/users/ann');
    assert.ok(bob > 0 && ann > bob, 'newest first');
    assert.match(page.body, /<td>one\.example<\/td>/);
    assert.match(page.body, /href="\/admin\/followers" aria-current="page"/);
  });

  it('says so when ActivityPub is off', async () => {
    const page = await pageOf(createFollowersPages({}));
    assert.match(page.body, /\[blog\.activitypub\] is off/);
  });
});
