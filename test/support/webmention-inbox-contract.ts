// The WebmentionInbox contract (src/comments/webmention-inbox.ts), for every comment store: a webmention received is
// pending and claimed once, oldest first, even under claims at once; settling it ends its pending state; one claimed
// and never settled (its process died) is claimed again by a store opened anew once the lease ran out; settled ones
// are forgotten when asked; an id that is not one reads as none.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CommentStore } from '../../src/comments/comment-store.js';
import { WEBMENTION_LEASE_MS, type InboxWebmention } from '../../src/comments/webmention-inbox.js';

const T0 = Date.UTC(2026, 10, 29, 12);

/** A webmention of source `n`, received `n` seconds after T0, with a 20-hex-digit id. */
export function inboxWebmention(n: number): InboxWebmention {
  return { id: n.toString(16).padStart(20, '0'), source: `https://site.example/${n}`, target: 'https://blog.example.com/blog/hello', slug: 'hello', lang: 'en', receivedAt: T0 + n * 1000 };
}

export function webmentionInboxContract(open: () => Promise<{ store: CommentStore; reopen(): Promise<CommentStore> }>): void {
  it('keeps a webmention pending until settled, and lets it be claimed once, oldest first', async () => {
    const { store, reopen } = await open();
    const inbox = store.webmentions;
    await inbox.receive(inboxWebmention(2));
    await inbox.receive(inboxWebmention(1));
    assert.deepEqual(await (await reopen()).webmentions.status(inboxWebmention(1).id), { status: 'pending' });
    assert.deepEqual(await inbox.claim(1, T0 + 5000), [inboxWebmention(1)]);
    assert.deepEqual(await inbox.claim(5, T0 + 5000), [inboxWebmention(2)]);
    assert.deepEqual(await inbox.claim(5, T0 + 5000), []);
    await inbox.settle(inboxWebmention(1).id, { status: 'accepted' });
    await inbox.settle(inboxWebmention(2).id, { status: 'refused', reason: 'The source is gone (410).' });
    const again = (await reopen()).webmentions;
    assert.deepEqual(await again.status(inboxWebmention(1).id), { status: 'accepted' });
    assert.deepEqual(await again.status(inboxWebmention(2).id), { status: 'refused', reason: 'The source is gone (410).' });
    assert.deepEqual(await again.claim(5, T0 + 10 * WEBMENTION_LEASE_MS), []);
    assert.equal(await again.status('00000000000000000099'), undefined);
    assert.equal(await again.status('../../x'), undefined);
  });

  it('gives each of many webmentions to one of the claims made at once', async () => {
    const { store } = await open();
    const all = Array.from({ length: 30 }, (_, index) => inboxWebmention(index + 1));
    for (const mention of all) await store.webmentions.receive(mention);
    const claims = await Promise.all([1, 2, 3, 4].map(() => store.webmentions.claim(10, T0 + 60_000)));
    const ids = claims.flat().map((mention) => mention.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids.sort(), all.map((mention) => mention.id).sort());
  });

  it('gives a webmention claimed and never settled to a store opened anew, once its lease ran out', async () => {
    const { store, reopen } = await open();
    await store.webmentions.receive(inboxWebmention(7));
    assert.equal((await store.webmentions.claim(5, T0 + 10_000)).length, 1);
    const restarted = (await reopen()).webmentions;
    assert.deepEqual(await restarted.claim(5, T0 + 10_000 + WEBMENTION_LEASE_MS + 1), [inboxWebmention(7)]);
    await restarted.settle(inboxWebmention(7).id, { status: 'accepted' });
    assert.deepEqual(await restarted.status(inboxWebmention(7).id), { status: 'accepted' });
  });

  it('forgets settled webmentions received before a time, never pending ones', async () => {
    const { store } = await open();
    const inbox = store.webmentions;
    for (const n of [1, 2, 3]) await inbox.receive(inboxWebmention(n));
    const [oldest] = await inbox.claim(1, T0 + 5000);
    await inbox.settle(oldest!.id, { status: 'accepted' });
    await inbox.forget(T0 + 10_000);
    assert.equal(await inbox.status(inboxWebmention(1).id), undefined);
    assert.deepEqual(await inbox.status(inboxWebmention(2).id), { status: 'pending' });
  });
}
