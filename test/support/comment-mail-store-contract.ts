// The CommentMailStore contract (src/comments/comment-mail-store.ts), for every store that implements it: an opt-in
// watches a comment and claims the confirmation mail once per window, even when many come at once; confirming and
// unsubscribing (one thread, or all, which asks for a confirmation again); a token is found while valid and taken
// once, however many takes come at once; and everything is there again in a store opened anew.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CommentMailStore, OptIn } from '../../src/comments/comment-mail-store.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const DAY = 86_400_000;

const optIn = (commentId: string, now = NOW, fields: Partial<OptIn> = {}): OptIn => ({
  address: 'Ada@Example.org',
  commentId,
  now,
  resendAfter: now - DAY,
  newId: 'A'.repeat(22),
  ...fields,
});

/** `open()` gives a store and `reopen()` another one over the same records. */
export function commentMailStoreContract(open: () => Promise<{ store: CommentMailStore; reopen(): Promise<CommentMailStore> }>): void {
  it('claims one confirmation mail of many concurrent opt-ins, and again only after the window', async () => {
    const { store, reopen } = await open();
    const outcomes = await Promise.all(['c1', 'c2', 'c3', 'c4', 'c5'].map((id, index) => store.optIn(optIn(id, NOW, { newId: String(index).repeat(22) }))));
    assert.equal(outcomes.filter((outcome) => outcome.sendConfirmation).length, 1);
    assert.equal(new Set(outcomes.map((outcome) => outcome.subscriber.id)).size, 1, 'one subscriber per address');
    const again = await reopen();
    const subscriber = (await again.subscriberByAddress('ada@example.ORG'))!;
    assert.deepEqual([...subscriber.watched].sort(), ['c1', 'c2', 'c3', 'c4', 'c5']);
    assert.equal(subscriber.confirmed, false);
    assert.equal((await again.optIn(optIn('c6', NOW + DAY - 1))).sendConfirmation, false);
    assert.equal((await again.optIn(optIn('c6', NOW + DAY))).sendConfirmation, true);
  });

  it('confirms, stops one thread or all (then the address must confirm again)', async () => {
    const { store } = await open();
    const { subscriber } = await store.optIn(optIn('c1'));
    await store.optIn(optIn('c2'));
    assert.equal(await store.confirm(subscriber.id), true);
    assert.equal(await store.confirm('B'.repeat(22)), false);
    assert.equal((await store.optIn(optIn('c3', NOW + 2 * DAY))).sendConfirmation, false, 'a confirmed address gets no confirmation');
    assert.equal(await store.unsubscribe(subscriber.id, 'c1'), true);
    assert.deepEqual((await store.subscriberById(subscriber.id))!.watched.sort(), ['c2', 'c3']);
    assert.equal(await store.unsubscribe(subscriber.id, null), true);
    const after = (await store.subscriberById(subscriber.id))!;
    assert.deepEqual([after.confirmed, after.watched], [false, []]);
    assert.equal(await store.unsubscribe('B'.repeat(22), null), false);
  });

  it('finds a token while it is valid and lets it be taken once', async () => {
    const { store, reopen } = await open();
    await store.addToken({ hash: 'h1', action: 'moderate', comment: { slug: 'hello', lang: 'en', id: 'x1' }, expiresAt: NOW + DAY }, NOW);
    await store.addToken({ hash: 'h2', action: 'confirm', subscriberId: 'A'.repeat(22), expiresAt: NOW + DAY }, NOW);
    const again = await reopen();
    assert.deepEqual(await again.findToken('h2', NOW), { hash: 'h2', action: 'confirm', subscriberId: 'A'.repeat(22), expiresAt: NOW + DAY });
    assert.equal(await again.findToken('h2', NOW + DAY), undefined, 'expired');
    const takes = await Promise.all(Array.from({ length: 6 }, () => again.takeToken('h1', NOW)));
    const taken = takes.filter((token) => token !== undefined);
    assert.deepEqual(taken, [{ hash: 'h1', action: 'moderate', comment: { slug: 'hello', lang: 'en', id: 'x1' }, expiresAt: NOW + DAY }]);
    assert.equal(await again.findToken('h1', NOW), undefined);
    assert.equal(await again.takeToken('h2', NOW + DAY), undefined, 'an expired token is not taken');
  });
}
