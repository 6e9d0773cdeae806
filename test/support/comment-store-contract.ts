// The CommentStore contract (src/comments/comment-store.ts), for every store that implements it: a comment kept is
// listed by its version only, oldest first; a webmention keeps its kind and source; a status changes and a comment goes; approved addresses are compared
// without case; comments added at once are all kept; and everything is there again in a store opened anew. The
// webmentions received are held to webmention-inbox-contract.ts.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CommentStore, StoredComment } from '../../src/comments/comment-store.js';
import { webmentionInboxContract } from './webmention-inbox-contract.js';

/** A comment on `slug` in English, at the minute `minute` of 2024-05-01 12:00 UTC. */
export function storedComment(slug: string, id: string, minute = 0, fields: Partial<StoredComment> = {}): StoredComment {
  return {
    id,
    slug,
    lang: 'en',
    parent: null,
    author: { name: 'Ada', url: 'https://ada.example' },
    email: 'ada@example.org',
    text: `text ${id}`,
    html: `<p>text ${id}</p>\n`,
    createdAt: new Date(Date.UTC(2024, 4, 1, 12, minute)).toISOString(),
    status: 'waiting',
    kind: 'comment',
    ...fields,
  };
}

/** `open()` gives a store and `reopen()` another one over the same records. */
export function commentStoreContract(open: () => Promise<{ store: CommentStore; reopen(): Promise<CommentStore> }>): void {
  webmentionInboxContract(open);
  it('lists a version\'s comments only, oldest first, and every comment for /admin', async () => {
    const { store } = await open();
    await store.add(storedComment('hello', 'b1', 2));
    await store.add(storedComment('hello', 'a1', 1));
    await store.add(storedComment('other', 'c1', 0));
    await store.add(storedComment('hello', 'd1', 3, { lang: 'de' }));
    assert.deepEqual((await store.listVersion({ slug: 'hello', lang: 'en' })).map((comment) => comment.id).sort(), ['a1', 'b1']);
    assert.deepEqual((await store.listAll()).map((comment) => comment.id), ['c1', 'a1', 'b1', 'd1']);
    assert.deepEqual(await store.listVersion({ slug: 'none', lang: 'en' }), []);
  });

  it('changes a status, removes a comment, and says when there is none', async () => {
    const { store } = await open();
    await store.add(storedComment('hello', 'a1'));
    assert.equal((await store.setStatus({ slug: 'hello', lang: 'en' }, 'a1', 'published'))?.status, 'published');
    assert.equal(await store.setStatus({ slug: 'hello', lang: 'en' }, 'zz', 'published'), undefined);
    assert.equal(await store.remove({ slug: 'hello', lang: 'en' }, 'a1'), true);
    assert.equal(await store.remove({ slug: 'hello', lang: 'en' }, 'a1'), false);
    assert.deepEqual(await store.listVersion({ slug: 'hello', lang: 'en' }), []);
  });

  it('keeps a webmention\'s kind and source', async () => {
    const { store, reopen } = await open();
    await store.add(storedComment('hello', 'w1', 0, { kind: 'reply', source: 'https://site.example/note', email: null }));
    const [kept] = await (await reopen()).listVersion({ slug: 'hello', lang: 'en' });
    assert.equal(kept!.kind, 'reply');
    assert.equal(kept!.source, 'https://site.example/note');
    assert.equal((await store.listAll())[0]!.source, 'https://site.example/note');
  });

  it('remembers approved addresses, compared without case', async () => {
    const { store } = await open();
    assert.equal(await store.isApprovedAddress('ada@example.org'), false);
    await store.addApprovedAddress('Ada@Example.org');
    assert.equal(await store.isApprovedAddress('ada@example.org'), true);
    assert.equal(await store.isApprovedAddress('bob@example.org'), false);
  });

  it('keeps every one of many comments added at once, and all of it in a store opened again', async () => {
    const { store, reopen } = await open();
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.add(storedComment('hello', `c${index}`, index))));
    await store.setStatus({ slug: 'hello', lang: 'en' }, 'c3', 'spam');
    await store.addApprovedAddress('ada@example.org');
    const again = await reopen();
    const comments = await again.listVersion({ slug: 'hello', lang: 'en' });
    assert.equal(comments.length, 20);
    assert.equal(comments.find((comment) => comment.id === 'c3')?.status, 'spam');
    assert.deepEqual(comments.find((comment) => comment.id === 'c5'), storedComment('hello', 'c5', 5));
    assert.equal(await again.isApprovedAddress('ADA@example.org'), true);
  });

  it('edits a text and its HTML, and keeps who wrote a reply of the site', async () => {
    const { store, reopen } = await open();
    await store.add(storedComment('hello', 'e1', 0, { email: null, byUser: 'jane', status: 'published' }));
    assert.equal(await store.edit({ slug: 'hello', lang: 'en' }, 'none', 'x', '<p>x</p>'), undefined);
    const edited = await store.edit({ slug: 'hello', lang: 'en' }, 'e1', 'new *text*', '<p>new <em>text</em></p>\n');
    assert.deepEqual([edited?.text, edited?.html, edited?.byUser], ['new *text*', '<p>new <em>text</em></p>\n', 'jane']);
    const again = (await (await reopen()).listVersion({ slug: 'hello', lang: 'en' }))[0]!;
    assert.deepEqual([again.text, again.byUser], ['new *text*', 'jane']);
  });
}
