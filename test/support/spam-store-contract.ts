// The SpamStore contract (src/forms/spam/quarantine.ts), run on each backend by its own test file
// (test/adapters/files/spam-files.test.ts, test/adapters/postgres/spam-store.test.ts): the quarantine lists a
// form's entries newest first and pages them without losing or repeating one; of a burst of concurrent claims
// exactly one wins; a claim left unsettled is claimable again once stale, and at once after `unclaim`; a released
// entry leaves the list and stays counted per day; `prune` forgets one form's old entries and expired challenges;
// of 20 concurrent uses of one challenge exactly one is true. `open()` gives two stores over the same records: two
// replicas on PostgreSQL, the one store twice on the files (one process owns data_dir).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { QuarantinedSubmission, SpamStore } from '../../src/forms/spam/quarantine.js';
import type { SpamReason } from '../../src/forms/spam/spam-reasons.js';

const DAY_MS = 86_400_000;
const STALE_MS = 10 * 60_000;
/** A time the contract's entries arrive at: 2026-11-02T09:00:00Z. */
export const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

/** A submission as the submit flow quarantines it: arrived `minutes` after T0 (unless `at`). */
export function spamEntry(form: string, index: number, options: { at?: number; reasons?: SpamReason[] } = {}): Omit<QuarantinedSubmission, 'id'> {
  return {
    form,
    receivedAt: new Date(options.at ?? T0 + index * 60_000).toISOString(),
    reasons: options.reasons ?? ['links'],
    submission: { name: `Sender ${index}`, email: `sender${index}@example.org`, message: `Cheap things at https://spam.example/${index} <b>now</b>` },
  };
}

export type OpenSpamStores = () => Promise<[SpamStore, SpamStore]>;

export function spamStoreContract(open: OpenSpamStores): void {
  it('keeps each entry as given, lists a form newest first, pages it by id without gaps, and counts it', async () => {
    const [store, other] = await open();
    const given = Array.from({ length: 7 }, (_, index) => spamEntry('/contact', index, { reasons: index % 2 === 0 ? ['links'] : ['proof_of_work', 'too_fast'] }));
    const ids: string[] = [];
    // One after the other: arrival order is the order of the calls.
    for (const [index, entry] of given.entries()) ids.push(await (index % 2 === 0 ? store : other).quarantine(entry));
    await store.quarantine(spamEntry('/other', 100));
    assert.equal(new Set(ids).size, 7, 'ids are unique');
    assert.deepEqual([...ids].sort(), ids, 'a later submission has a greater id');

    const newest = await other.list('/contact', { limit: 3 });
    assert.deepEqual(newest, [6, 5, 4].map((index) => ({ id: ids[index], ...given[index] })), 'everything as given, newest first');
    const paged: string[] = [];
    for (let before: string | undefined; ; ) {
      const page = await store.list('/contact', { limit: 3, ...(before === undefined ? {} : { before }) });
      paged.push(...page.map((entry) => entry.id));
      if (page.length < 3) break;
      before = page.at(-1)!.id;
    }
    assert.deepEqual(paged, [...ids].reverse(), 'every entry once, in order');
    assert.equal(await store.count('/contact'), 7);
    assert.equal(await other.count('/other'), 1);
    assert.deepEqual(await store.list('/nothing', { limit: 10 }), []);
    assert.equal(await store.count('/nothing'), 0);
    assert.deepEqual(await store.list('/contact', { limit: 10, before: ids[0]! }), [], 'nothing is older than the first');

    // What a caller does with an entry it got never changes the store's.
    newest[0]!.submission.message = 'changed';
    newest[0]!.reasons.push('words');
    assert.deepEqual((await store.list('/contact', { limit: 1 }))[0], { id: ids[6], ...given[6] });
  });

  it('gives a burst of concurrent claims through both stores exactly one winner; a released entry leaves the list and stays counted', async () => {
    const [store, other] = await open();
    const id = await store.quarantine(spamEntry('/contact', 1));
    const kept = await store.quarantine(spamEntry('/contact', 2));
    const now = T0 + DAY_MS;
    const claims = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? store : other).claim(id, now, STALE_MS)));
    const won = claims.filter((claim) => claim.kind === 'claimed');
    assert.equal(won.length, 1, 'exactly one claim wins');
    assert.deepEqual(won[0], { kind: 'claimed', entry: { id, ...spamEntry('/contact', 1) } });
    assert.deepEqual(await other.claim(id, now + STALE_MS - 1, STALE_MS), { kind: 'gone' }, 'claimed, and not stale yet');

    await other.released(id, now + 1_000);
    assert.deepEqual((await store.list('/contact', { limit: 10 })).map((entry) => entry.id), [kept], 'released: no longer listed');
    assert.equal(await other.count('/contact'), 1);
    assert.deepEqual(await store.claim(id, now + DAY_MS, STALE_MS), { kind: 'gone' }, 'a released entry is never claimed again, stale or not');
    assert.deepEqual(await store.claim('no-such-id', now, STALE_MS), { kind: 'gone' });
    assert.deepEqual(await other.countByDay(T0 - DAY_MS), [{ day: '2026-11-02', form: '/contact', count: 2 }], 'the released one still counts');
  });

  it('lets a claim left unsettled (a crash mid-release) be claimed again once stale, and at once after unclaim', async () => {
    const [store, other] = await open();
    const id = await store.quarantine(spamEntry('/contact', 1));
    const now = T0 + DAY_MS;
    assert.equal((await store.claim(id, now, STALE_MS)).kind, 'claimed');
    assert.deepEqual(await other.claim(id, now + STALE_MS, STALE_MS), { kind: 'gone' }, 'exactly stale-after later: still held');
    assert.equal((await other.claim(id, now + STALE_MS + 1, STALE_MS)).kind, 'claimed', 'past stale-after: claimable again');

    // A delivery that failed gives the entry back: claimable at once, and still listed all along.
    await other.unclaim(id);
    assert.deepEqual((await store.list('/contact', { limit: 10 })).map((entry) => entry.id), [id]);
    const again = await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? store : other).claim(id, now + STALE_MS + 2, STALE_MS)));
    assert.equal(again.filter((claim) => claim.kind === 'claimed').length, 1);
    await store.released(id, now + STALE_MS + 3);
    await store.unclaim(id);
    assert.equal(await store.count('/contact'), 0, 'an unclaim after the release brings nothing back');
  });

  it('deletes what a person chose: one entry, or every waiting one up to the newest shown; never one being released, another form, or a later arrival', async () => {
    const [store, other] = await open();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await store.quarantine(spamEntry('/contact', index)));
    const elsewhere = await store.quarantine(spamEntry('/other', 9));
    const now = T0 + DAY_MS;
    assert.equal(await other.discard('/contact', { id: ids[1]! }, now, STALE_MS), 1);
    assert.equal(await store.discard('/contact', { id: ids[1]! }, now, STALE_MS), 0, 'gone already');
    assert.equal(await store.discard('/other', { id: ids[0]! }, now, STALE_MS), 0, 'an id of another form');
    assert.equal((await store.claim(ids[2]!, now, STALE_MS)).kind, 'claimed');
    // Shown up to ids[3]; ids[4] arrived after the page was drawn.
    const burst = await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? store : other).discard('/contact', { upTo: ids[3]! }, now + 1, STALE_MS)));
    assert.equal(burst.reduce((sum, count) => sum + count, 0), 2, 'ids[0] and ids[3], each deleted once');
    assert.deepEqual((await other.list('/contact', { limit: 10 })).map((entry) => entry.id), [ids[4], ids[2]], 'the later arrival and the one being released stay');
    assert.deepEqual(await store.claim(ids[0]!, now + 2, STALE_MS), { kind: 'gone' }, 'a deleted entry cannot be released');
    assert.equal(await other.count('/other'), 1);
    assert.deepEqual((await store.list('/other', { limit: 10 })).map((entry) => entry.id), [elsewhere]);
    assert.equal(await store.discard('/contact', { upTo: 'not-an-id' }, now, STALE_MS), 0);
    assert.deepEqual(await other.countByDay(T0 - DAY_MS), [
      { day: '2026-11-02', form: '/contact', count: 2 },
      { day: '2026-11-02', form: '/other', count: 1 },
    ], 'deleted entries leave the counts');
  });

  it('counts per UTC day and form since a time, released entries included', async () => {
    const [store, other] = await open();
    const day = (offset: number, hour: number) => T0 - 9 * 3_600_000 + offset * DAY_MS + hour * 3_600_000;
    await store.quarantine(spamEntry('/contact', 1, { at: day(-3, 12) }));
    await store.quarantine(spamEntry('/contact', 2, { at: day(0, 0) }));
    await other.quarantine(spamEntry('/contact', 3, { at: day(0, 23.99) }));
    await store.quarantine(spamEntry('/b', 4, { at: day(0, 5) }));
    await other.quarantine(spamEntry('/contact', 5, { at: day(1, 1) }));
    const released = await store.quarantine(spamEntry('/b', 6, { at: day(1, 2) }));
    assert.equal((await store.claim(released, day(2, 0), STALE_MS)).kind, 'claimed');
    await store.released(released, day(2, 0));
    assert.deepEqual(await other.countByDay(day(0, 0)), [
      { day: '2026-11-02', form: '/b', count: 1 },
      { day: '2026-11-02', form: '/contact', count: 2 },
      { day: '2026-11-03', form: '/b', count: 1 },
      { day: '2026-11-03', form: '/contact', count: 1 },
    ]);
    assert.deepEqual(await store.countByDay(day(5, 0)), []);
  });

  it('prunes one form at a time: its entries received before the time, released or not, and the challenges expired before it', async () => {
    const [store, other] = await open();
    const cutoff = T0 + 10 * 60_000;
    const old = await store.quarantine(spamEntry('/contact', 1));
    const oldReleased = await store.quarantine(spamEntry('/contact', 2));
    await store.claim(oldReleased, T0 + DAY_MS, STALE_MS);
    await store.released(oldReleased, T0 + DAY_MS);
    const young = await other.quarantine(spamEntry('/contact', 10));
    const otherForm = await other.quarantine(spamEntry('/other', 3));
    assert.equal(await store.useOnce('expired-long-ago', cutoff - 1), true);
    assert.equal(await store.useOnce('expires-at-the-cutoff', cutoff), true);

    assert.equal(await other.prune('/contact', cutoff), 2, 'the two older entries of /contact');
    assert.deepEqual((await store.list('/contact', { limit: 10 })).map((entry) => entry.id), [young], 'received at the cutoff: kept');
    assert.deepEqual((await store.list('/other', { limit: 10 })).map((entry) => entry.id), [otherForm], 'another form is pruned on its own');
    assert.deepEqual(await store.claim(old, T0 + DAY_MS, STALE_MS), { kind: 'gone' });
    assert.deepEqual(await store.countByDay(0), [
      { day: '2026-11-02', form: '/contact', count: 1 },
      { day: '2026-11-02', form: '/other', count: 1 },
    ]);
    assert.equal(await store.useOnce('expired-long-ago', cutoff - 1), true, 'an expired challenge was forgotten');
    assert.equal(await other.useOnce('expires-at-the-cutoff', cutoff), false, 'one not expired before the cutoff is kept');
    assert.equal(await store.prune('/contact', cutoff), 0, 'nothing left to prune');
  });

  it('uses a challenge once: of 20 concurrent uses through both stores exactly one is true', async () => {
    const [store, other] = await open();
    const expiresAt = T0 + 600_000;
    const uses = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? store : other).useOnce('nonce-a', expiresAt)));
    assert.equal(uses.filter(Boolean).length, 1);
    assert.equal(await other.useOnce('nonce-a', expiresAt), false, 'and false ever after');
    assert.equal(await store.useOnce('nonce-b', expiresAt), true, 'another challenge is its own');
  });
}
