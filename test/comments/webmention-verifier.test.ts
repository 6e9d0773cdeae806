// The verifier of received webmentions (src/comments/webmention/webmention-verifier.ts) over an inbox in memory and
// fake time: it claims at start and on every poll, settles what verification says, settles a verification that threw
// as "send it again" and reports it, and reports a store it cannot reach once, not at every poll.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxWebmention, SettledStatus, WebmentionInbox } from '../../src/comments/webmention-inbox.js';
import { createWebmentionVerifier } from '../../src/comments/webmention/webmention-verifier.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { inboxWebmention } from '../support/webmention-inbox-contract.js';

/** An inbox holding `pending`; `failClaims` makes claims reject. */
function memoryInbox(pending: InboxWebmention[]): WebmentionInbox & { settled: Map<string, SettledStatus>; failClaims: boolean } {
  const settled = new Map<string, SettledStatus>();
  const inbox = {
    settled,
    failClaims: false,
    receive: async (mention: InboxWebmention) => void pending.push(mention),
    claim: async (limit: number) => {
      if (inbox.failClaims) throw new Error('store away');
      return pending.splice(0, limit);
    },
    settle: async (id: string, outcome: SettledStatus) => void settled.set(id, outcome),
    status: async () => undefined,
    forget: async () => undefined,
  };
  return inbox;
}

describe('the webmention verifier', () => {
  it('verifies what it claims, and settles a verification that threw as one to send again', async () => {
    const timer = createFakeTimer();
    const inbox = memoryInbox([inboxWebmention(1), inboxWebmention(2)]);
    const errors: unknown[] = [];
    const verifier = createWebmentionVerifier({
      inbox,
      verify: async (mention) => {
        if (mention.source.endsWith('/2')) throw new Error('the store failed');
        return { status: 'accepted', commentId: 'c1' };
      },
      clock: () => timer.now(),
      timers: timer,
      concurrency: 4,
      pollIntervalMs: 1_000,
      keepMs: 30 * 86_400_000,
      onError: (error) => errors.push(error),
    });
    verifier.start();
    await timer.until('both settled', () => (inbox.settled.size === 2 ? true : undefined));
    assert.deepEqual(inbox.settled.get(inboxWebmention(1).id), { status: 'accepted' });
    assert.deepEqual(inbox.settled.get(inboxWebmention(2).id), { status: 'refused', reason: 'The source could not be checked; send it again later.' });
    assert.equal(errors.length, 1);

    // One received elsewhere is found at the next poll.
    await inbox.receive(inboxWebmention(3));
    await timer.advance(1_000);
    await timer.until('the third settled', () => (inbox.settled.size === 3 ? true : undefined));
    await verifier.close();
  });

  it('reports a store it cannot reach once, and claims again when it is back', async () => {
    const timer = createFakeTimer();
    const inbox = memoryInbox([]);
    inbox.failClaims = true;
    const errors: unknown[] = [];
    const verifier = createWebmentionVerifier({
      inbox,
      verify: async () => ({ status: 'accepted', commentId: 'c1' }),
      clock: () => timer.now(),
      timers: timer,
      concurrency: 4,
      pollIntervalMs: 1_000,
      keepMs: 30 * 86_400_000,
      onError: (error) => errors.push(error),
    });
    verifier.start();
    for (let poll = 0; poll < 5; poll += 1) await timer.advance(1_000);
    assert.equal(errors.length, 1);
    inbox.failClaims = false;
    await inbox.receive(inboxWebmention(4));
    await timer.advance(1_000);
    await timer.until('settled once the store is back', () => (inbox.settled.size === 1 ? true : undefined));
    await verifier.close();
  });
});
