// The BounceStore contract (src/bounces/bounce-store.ts), run on each backend by its own test file
// (test/adapters/files/suppressions.test.ts, test/adapters/postgres/suppressions.test.ts): the list compares
// addresses without case and keeps the first entry, soft bounces count within their window and a burst of reports
// at once suppresses exactly once, sent mails are found by id until purged, and a campaign's bounces count once per
// recipient and kind. `open()` gives two stores over the same records (two processes, two replicas).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { BounceStore, SentMail, Suppression } from '../../src/bounces/bounce-store.js';
import { newSentId } from '../../src/bounces/verp.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

const DAY_MS = 86_400_000;
export const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const POLICY = { limit: 3, windowMs: 30 * DAY_MS };

export function entry(address: string, at = T0, kind: Suppression['kind'] = 'hard'): Suppression {
  return { address, kind, at, reason: `550 5.1.1 <address>: user unknown (${kind})`, source: 'imap' };
}

export function storeContract(open: () => Promise<[BounceStore, BounceStore]>): void {
  it('suppresses an address once, compares it without case, lists newest first and removes it', async () => {
    const [store, other] = await open();
    assert.equal(await store.suppress(entry('gone@example.org', T0)), true);
    assert.equal(await other.suppress(entry('GONE@example.org', T0 + 5, 'complaint')), false, 'the first entry stays');
    assert.equal(await store.suppress(entry('later@example.org', T0 + 60_000, 'complaint')), true);
    assert.equal(await other.isSuppressed('Gone@Example.org'), true);
    assert.equal(await store.isSuppressed('someone@example.org'), false);
    const list = await other.list();
    assert.deepEqual(
      list.map(({ address, kind, at, source }) => ({ address, kind, at, source })),
      [
        { address: 'later@example.org', kind: 'complaint', at: T0 + 60_000, source: 'imap' },
        { address: 'gone@example.org', kind: 'hard', at: T0, source: 'imap' },
      ],
    );
    assert.equal(list[1]!.reason, '550 5.1.1 <address>: user unknown (hard)');
    assert.equal(await other.remove('GONE@example.org'), true);
    assert.equal(await store.remove('gone@example.org'), false);
    // The files see another process's change within a second (their own test); the remover sees it at once.
    assert.equal(await other.isSuppressed('gone@example.org'), false);
  });

  it('compares the canonical address: a quoted local part that needs no quotes is the same mailbox', async () => {
    const [store, other] = await open();
    assert.equal(await store.suppress(entry('mg@example.net', T0)), true);
    for (const spelling of ['"mg"@example.net', '"MG"@Example.net', '"m\\g"@example.net']) assert.equal(await other.isSuppressed(spelling), true, spelling);
    assert.equal(await other.isSuppressed('"m g"@example.net'), false, 'another mailbox');
    assert.equal(await other.suppress(entry('"Mg"@example.net', T0 + 5, 'complaint')), false, 'the first entry stays');
    assert.equal(await store.suppress(entry('"quoted"@example.net', T0 + 10)), true);
    assert.deepEqual((await store.list()).map((suppression) => suppression.address).sort(), ['mg@example.net', 'quoted@example.net']);
    assert.equal(await store.countSoft(entry('"full"@example.net', T0, 'soft'), POLICY), 'counted');
    assert.equal(await store.countSoft(entry('full@example.net', T0 + 1, 'soft'), POLICY), 'counted');
    assert.equal(await store.countSoft(entry('FULL@example.net', T0 + 2, 'soft'), POLICY), 'suppressed', 'three soft bounces of one mailbox');
    assert.equal(await other.remove('"mg"@example.net'), true);
    assert.equal(await other.isSuppressed('mg@example.net'), false);
  });

  it('suppresses on the third soft bounce within the window, not on older ones, and counts afresh after a removal', async () => {
    const [store] = await open();
    const address = 'full@example.org';
    assert.equal(await store.countSoft(entry(address, T0, 'soft'), POLICY), 'counted');
    // Past the window of the next one: it no longer counts.
    assert.equal(await store.countSoft(entry(address, T0 + 31 * DAY_MS, 'soft'), POLICY), 'counted');
    assert.equal(await store.countSoft(entry(address, T0 + 32 * DAY_MS, 'soft'), POLICY), 'counted');
    assert.equal(await store.isSuppressed(address), false, 'two within the window');
    assert.equal(await store.countSoft(entry(address, T0 + 33 * DAY_MS, 'soft'), POLICY), 'suppressed');
    assert.equal((await store.list())[0]?.kind, 'soft');
    assert.equal(await store.countSoft(entry(address, T0 + 34 * DAY_MS, 'soft'), POLICY), 'counted', 'on the list already');
    assert.equal(await store.remove(address), true);
    assert.equal(await store.countSoft(entry(address, T0 + 35 * DAY_MS, 'soft'), POLICY), 'counted', 'the earlier ones were forgotten');
    assert.equal(await store.isSuppressed(address), false);
  });

  it('suppresses exactly once for a burst of soft bounces arriving at once through two stores', async () => {
    const [store, other] = await open();
    // Five addresses, three reports each, all at once: each address is suppressed by exactly one of its reports.
    const addresses = Array.from({ length: 5 }, (_, index) => `burst${index}@example.org`);
    const reports = addresses.flatMap((address) => [0, 1, 2].map((index) => ({ address, index })));
    const outcomes = await Promise.all(reports.map(({ address, index }) => (index % 2 ? other : store).countSoft(entry(address, T0 + index, 'soft'), POLICY)));
    for (const address of addresses) {
      const own = outcomes.filter((_outcome, at) => reports[at]!.address === address);
      assert.deepEqual(own.filter((outcome) => outcome === 'suppressed').length, 1, `${address}: ${own.join(', ')}`);
    }
    const bigger = await Promise.all(Array.from({ length: 7 }, (_, index) => (index % 2 ? other : store).countSoft(entry('many@example.org', T0 + index, 'soft'), POLICY)));
    assert.equal(bigger.filter((outcome) => outcome === 'suppressed').length, 1, bigger.join(', '));
    assert.equal((await store.list()).length, 6);
  });

  it('finds a sent mail by its id, in either store, until it is purged', async () => {
    const [store, other] = await open();
    const random = createCountingRandomBytes();
    const receipt: SentMail = { id: newSentId(T0, random), to: ['visitor@example.org'], owner: false, kind: 'receipt', form: '/contact', at: T0 };
    const campaign: SentMail = { id: newSentId(T0 + DAY_MS, random), to: ['reader@example.org'], owner: false, kind: 'newsletter', form: '/news', campaign: { campaign: '20261102T090000Z-abcd', index: 41 }, at: T0 + DAY_MS };
    const owner: SentMail = { id: newSentId(T0 + DAY_MS, random), to: ['owner@example.com', 'second@example.com'], owner: true, kind: 'owner', form: '/contact', at: T0 + DAY_MS };
    await Promise.all([store.recordSent(receipt), store.recordSent(campaign), other.recordSent(owner)]);
    assert.deepEqual(await other.findSent(receipt.id), receipt);
    assert.deepEqual(await other.findSent(campaign.id), campaign);
    assert.deepEqual(await store.findSent(owner.id), owner);
    assert.equal(await store.findSent(newSentId(T0, random)), undefined, 'never sent');
    // Purged once older than the cut-off: the first day's mail goes, the next day's stays.
    assert.equal(await store.purgeSent(T0 + DAY_MS - 1000), 1);
    assert.equal(await other.findSent(receipt.id), undefined);
    assert.deepEqual(await other.findSent(campaign.id), campaign);
  });

  it("counts a campaign's bounces once per recipient and kind", async () => {
    const [store, other] = await open();
    const id = '20261102T090000Z-beef';
    await Promise.all([store.tallyCampaign(id, 3, 'hard', T0), other.tallyCampaign(id, 3, 'hard', T0), store.tallyCampaign(id, 4, 'hard', T0), other.tallyCampaign(id, 3, 'complaint', T0)]);
    assert.deepEqual(await store.campaignTally(id), { hard: 2, complaint: 1 });
    assert.deepEqual(await other.campaignTally('20261102T090000Z-0000'), { hard: 0, complaint: 0 });
  });
}
