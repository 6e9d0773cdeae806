// /admin/comments (docs/comments.md "Moderating in /admin") through the composed blog service: a comment that
// waits under moderation = "first" is approved there, its address is trusted from then on, Mark spam hides a
// comment, Delete asks first, and each decision is in the audit log. Authors see the comments of their own posts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createCommentsPages } from '../../src/admin/comments-pages/comments-pages.js';
import type { AdminRequest, AdminSession } from '../../src/admin/admin-pages.js';
import type { StoredComment } from '../../src/comments/comment-store.js';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { readJsonLines } from '../support/json-lines.js';
import { withTempDir } from '../support/temp-dir.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

let app: CommentsApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const total = async () => ((await app!.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { total: number }).total;

describe('/admin/comments', () => {
  it('approves a waiting comment, after which the address publishes at once; marks spam and deletes, each audited', async () => {
    app = await startCommentsApp({ moderation: 'first' });
    const first = (await app.post('hello', { name: 'Ada', email: 'Ada@Example.org', text: 'My first comment' })).json() as { status: string; id: string };
    assert.equal(first.status, 'pending');
    assert.equal(await total(), 0);

    const { cookie, csrf } = await app.signIn('jane');
    const dashboard = await app.service.inject({ method: 'GET', url: '/admin', headers: { cookie } });
    assert.match(dashboard.body, /<a href="\/admin\/comments"><span class="admin-tile-value">1<\/span> <span class="admin-tile-label">comment waiting<\/span>/);
    const page = await app.service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Waiting for approval \(1\)[\s\S]*My first comment/);
    assert.doesNotMatch(page.body, /example\.org/i, 'the address is never shown');
    assert.match(page.body, /href="\/admin\/comments" aria-current="page"/);

    const decide = (fields: Record<string, string>) =>
      app!.service.inject({
        method: 'POST',
        url: '/admin/comments',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf_token: csrf, slug: 'hello', lang: 'en', ...fields }).toString(),
      });
    const approved = await decide({ action: 'approve', id: first.id });
    assert.equal(approved.statusCode, 303);
    assert.equal(approved.headers.location, '/admin/comments?notice=approved');
    assert.equal(await total(), 1);

    const second = (await app.post('hello', { name: 'Ada', email: 'ada@example.org', text: 'Trusted now' })).json() as { status: string; id: string };
    assert.equal(second.status, 'published', 'an approved address is published at once');
    const stranger = (await app.post('hello', { name: 'Bob', email: 'bob@example.org', text: 'New here' })).json() as { status: string };
    assert.equal(stranger.status, 'pending');

    const onOther = await app.service.inject({ method: 'GET', url: '/admin/comments?post=other', headers: { cookie } });
    assert.match(onOther.body, /<h1>Comments on other<\/h1>/);
    assert.doesNotMatch(onOther.body, /Trusted now|New here/, 'only the comments of that post');
    assert.match((await app.service.inject({ method: 'GET', url: '/admin/comments?post=hello', headers: { cookie } })).body, /New here/);

    assert.equal((await decide({ action: 'spam', id: second.id })).headers.location, '/admin/comments?notice=spam');
    assert.equal(await total(), 1);

    const asked = await decide({ action: 'delete', id: first.id });
    assert.equal(asked.statusCode, 200, 'Delete asks first');
    assert.match(asked.body, /Delete the comment of Ada\?/);
    assert.equal(await total(), 1);
    const deleted = await decide({ action: 'delete', id: first.id, confirm: 'yes' });
    assert.equal(deleted.headers.location, '/admin/comments?notice=deleted');
    assert.equal(await total(), 0);

    const audit = await readJsonLines(path.join(app.dir, 'data', 'admin-audit.jsonl'));
    const events = (audit as Array<{ event: string; user?: string; subject?: string }>).filter((line) => line.event.startsWith('comment_'));
    assert.deepEqual(events.map((line) => line.event), ['comment_approved', 'comment_marked_spam', 'comment_deleted']);
    assert.ok(events.every((line) => line.user === 'jane' && line.subject?.startsWith('hello (en) comment ')));
  });

  it('refuses a POST without the CSRF token', async () => {
    app = await startCommentsApp();
    const { id } = (await app.post('hello', { name: 'Ada', text: 'Hi' })).json() as { id: string };
    const { cookie } = await app.signIn('jane');
    const refused = await app.service.inject({
      method: 'POST',
      url: '/admin/comments',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ action: 'approve', slug: 'hello', lang: 'en', id }).toString(),
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(await total(), 0);
  });

  it('shows an author only the comments of their own posts, and lets them decide on those only', async () => {
    await withTempDir('comments-author', async (dir) => {
      const store = createCommentFiles(dir);
      const comment = (slug: string, id: string): StoredComment => ({
        id, slug, lang: 'en', parent: null, author: { name: `on ${slug}`, url: null }, email: null, text: `text on ${slug}`, html: '', createdAt: '2024-05-01T12:00:00.000Z', status: 'waiting', kind: 'comment',
      });
      await store.add(comment('mine', 'a1'));
      await store.add(comment('theirs', 'b2'));
      const audited: string[] = [];
      const [route] = createCommentsPages({ store, authorOf: ({ slug }) => (slug === 'mine' ? 'otto' : 'someone'), audit: async (_request, event) => void audited.push(event.event) });
      const session = { user: 'otto', role: 'author', timeZone: 'UTC', csrfToken: 'token' } as unknown as AdminSession;
      const request = (query: string, fields?: Record<string, string>) => ({ path: '/admin/comments', query, session, form: fields && { fields: new URLSearchParams(fields) } }) as unknown as AdminRequest;
      const page = await route!.methods.GET!(request(''), session);
      assert.match(String(page.body), /text on mine/);
      assert.doesNotMatch(String(page.body), /text on theirs/);
      const refused = await route!.methods.POST!(request('', { action: 'approve', slug: 'theirs', lang: 'en', id: 'b2' }), session);
      assert.equal((refused.headers as Record<string, string>).location, '/admin/comments?notice=gone');
      assert.equal((await store.listVersion({ slug: 'theirs', lang: 'en' }))[0]!.status, 'waiting');
      await route!.methods.POST!(request('', { action: 'approve', slug: 'mine', lang: 'en', id: 'a1' }), session);
      assert.equal((await store.listVersion({ slug: 'mine', lang: 'en' }))[0]!.status, 'published');
      assert.deepEqual(audited, ['comment_approved']);
    });
  });
});
