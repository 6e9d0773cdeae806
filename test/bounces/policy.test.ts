// The suppression policy (src/bounces/policy.ts, docs/bounces.md "Suppression") over the files store: the tag names
// the mail and its recipient; hard bounces and complaints suppress at once (a complaint also unsubscribes), soft
// ones on the third within the window (a burst of three at once suppresses once); the owner's addresses are never
// suppressed; forged, unknown or missing tags change nothing; logs never carry an address.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createSuppressionFiles } from '../../src/adapters/files/suppressions.js';
import type { BounceReport, BounceSink } from '../../src/bounces/bounce-report.js';
import type { BounceStore, SentMail } from '../../src/bounces/bounce-store.js';
import { createBouncePolicy } from '../../src/bounces/policy.js';
import { bounceKeyOf, createVerp, newSentId } from '../../src/bounces/verp.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';
import { createTempDir } from '../support/temp-dir.js';

const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const DAY_MS = 86_400_000;
const OWNER = 'owner@example.com';
const verp = createVerp(bounceKeyOf(Buffer.alloc(32, 3)));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Setup {
  sink: BounceSink;
  store: BounceStore;
  logs: LogCapture;
  unsubscribed: string[];
  /** Records a sent mail and gives its tagged envelope sender. */
  send(mail: Partial<SentMail> & { to: string[] }): Promise<string>;
}

async function setUp(): Promise<Setup> {
  const temp = await createTempDir('policy');
  cleanups.push(temp.remove);
  const store = createSuppressionFiles(temp.dir);
  const logs = captureLogs();
  const unsubscribed: string[] = [];
  const random = createCountingRandomBytes();
  const sink = createBouncePolicy({
    store,
    verp: async () => verp,
    isOwnerAddress: async (address) => address === OWNER || address === 'admin.user@example.com',
    subscribers: {
      removeEverywhere: async (address) => {
        unsubscribed.push(address);
        return [];
      },
    },
    clock: () => T0,
    softLimit: 3,
    softDays: 30,
    logger: logs.logger,
  });
  return {
    sink,
    store,
    logs,
    unsubscribed,
    async send(mail) {
      const id = newSentId(T0, random);
      await store.recordSent({ id, owner: false, kind: 'receipt', form: '/contact', at: T0, ...mail });
      return verp.envelopeSender('bounces@example.com', id);
    },
  };
}

const report = (fields: Partial<BounceReport>): BounceReport => ({ source: 'imap', kind: 'hard', sentTo: [], at: T0 + 3_600_000, ...fields });

describe('the suppression policy', () => {
  it('suppresses the recipient its tag names on a hard bounce, without an address in any log line', async () => {
    const { sink, store, logs, send } = await setUp();
    const envelope = await send({ to: ['visitor@example.org'] });
    assert.equal(await sink.record(report({ sentTo: ['someone@else.example', envelope], status: '5.1.1', reason: '550 5.1.1 <visitor@example.org> unknown' })), 'suppressed');
    const [suppressed] = await store.list();
    assert.deepEqual({ ...suppressed, reason: undefined }, { address: 'visitor@example.org', kind: 'hard', at: T0 + 3_600_000, reason: undefined, source: 'imap' });
    assert.equal(suppressed!.reason, '550 5.1.1 <address> unknown');
    assert.equal(await sink.record(report({ sentTo: [envelope] })), 'counted', 'on the list already');
    assert.ok(logs.lines().some((line) => line.event === 'address_suppressed' && line.kind === 'hard' && line.form === '/contact'));
    assert.doesNotMatch(logs.text(), /visitor@example\.org/);
  });

  it("trusts the tag's recipient over the one a report names", async () => {
    const { sink, store, send } = await setUp();
    const envelope = await send({ to: ['visitor@example.org'] });
    assert.equal(await sink.record(report({ sentTo: [envelope], recipient: 'victim@example.org' })), 'suppressed');
    assert.deepEqual((await store.list()).map((entry) => entry.address), ['visitor@example.org']);
  });

  it('ignores a forged tag, an unknown tag, a mailbox bounce without a tag, a report naming nobody and a kind of none', async () => {
    const { sink, store, logs, send } = await setUp();
    const envelope = await send({ to: ['visitor@example.org'] });
    const forged = envelope.replace(/[a-z2-7](?=@)/, (last) => (last === 'a' ? 'b' : 'a'));
    assert.equal(await sink.record(report({ sentTo: [forged], recipient: 'visitor@example.org' })), 'ignored');
    const unknown = verp.envelopeSender('bounces@example.com', newSentId(T0, () => Buffer.alloc(8, 200)));
    assert.equal(await sink.record(report({ sentTo: [unknown], recipient: 'visitor@example.org' })), 'ignored');
    assert.equal(await sink.record(report({ sentTo: ['bounces@example.com'], recipient: 'visitor@example.org' })), 'ignored', 'anybody can write to the mailbox');
    assert.equal(await sink.record(report({ source: 'postmark', sentTo: [] })), 'ignored');
    assert.equal(await sink.record(report({ kind: 'none', sentTo: [envelope] })), 'ignored');
    assert.deepEqual(await store.list(), []);
    const reasons = logs.lines().filter((line) => line.event === 'bounce_ignored').map((line) => line.reason);
    assert.deepEqual(reasons, ['forged_tag', 'unknown_tag', 'no_tag', 'no_recipient', 'no_failure']);
  });

  it("takes a provider's report without a tag by the recipient it names", async () => {
    const { sink, store } = await setUp();
    assert.equal(await sink.record(report({ source: 'ses', recipient: ' Reader@Example.org ' })), 'suppressed');
    assert.deepEqual((await store.list()).map((entry) => [entry.address, entry.source]), [['reader@example.org', 'ses']]);
  });

  it('suppresses on the third soft bounce within soft_days, not on two, nor on three spread wider', async () => {
    const { sink, store, send } = await setUp();
    const envelope = await send({ to: ['full@example.org'] });
    const soft = (at: number) => sink.record(report({ kind: 'soft', sentTo: [envelope], at, status: '4.2.2' }));
    assert.equal(await soft(T0), 'counted');
    assert.equal(await soft(T0 + 31 * DAY_MS), 'counted');
    assert.equal(await soft(T0 + 45 * DAY_MS), 'counted');
    assert.equal(await store.isSuppressed('full@example.org'), false, 'the first one fell out of the 30 days');
    assert.equal(await soft(T0 + 50 * DAY_MS), 'suppressed');
    assert.equal((await store.list())[0]?.kind, 'soft');
  });

  it('suppresses exactly once for a burst of three soft bounces at once', async () => {
    const { sink, store, logs, send } = await setUp();
    const envelope = await send({ to: ['full@example.org'] });
    const outcomes = await Promise.all([0, 1, 2].map((index) => sink.record(report({ kind: 'soft', sentTo: [envelope], at: T0 + index }))));
    assert.deepEqual([...outcomes].sort(), ['counted', 'counted', 'suppressed']);
    assert.equal((await store.list()).length, 1);
    assert.equal(logs.lines().filter((line) => line.event === 'address_suppressed').length, 1);
  });

  it('suppresses and unsubscribes from every list on a complaint', async () => {
    const { sink, store, unsubscribed, send } = await setUp();
    const envelope = await send({ to: ['reader@example.org'], kind: 'newsletter', form: '/news', campaign: { campaign: '20261102T090000Z-abcd', index: 4 } });
    assert.equal(await sink.record(report({ kind: 'complaint', sentTo: [envelope] })), 'suppressed');
    assert.deepEqual(unsubscribed, ['reader@example.org']);
    assert.equal((await store.list())[0]?.kind, 'complaint');
    // Reported again (a provider's retry): counted once for the campaign.
    await sink.record(report({ kind: 'complaint', sentTo: [envelope] }));
    assert.deepEqual(await store.campaignTally('20261102T090000Z-abcd'), { hard: 0, complaint: 1 });
  });

  it("never suppresses the owner's addresses: an owner mail's bounce, or a report about an owner's address, is an error line", async () => {
    const { sink, store, logs, unsubscribed, send } = await setUp();
    const ownerMail = await send({ to: ['typo@example.com', 'second@example.com'], owner: true, kind: 'owner' });
    assert.equal(await sink.record(report({ sentTo: [ownerMail], status: '5.1.1' })), 'owner');
    // A receipt that went to the owner's own address (the owner tried the form), and an /admin user's address.
    const receipt = await send({ to: [OWNER] });
    assert.equal(await sink.record(report({ kind: 'complaint', sentTo: [receipt] })), 'owner');
    assert.equal(await sink.record(report({ source: 'postmark', recipient: 'Admin.User@example.com' })), 'owner');
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(unsubscribed, []);
    const errors = logs.lines().filter((line) => line.event === 'bounce_owner');
    assert.equal(errors.length, 3);
    assert.ok(errors.every((line) => line.level === 50));
    assert.equal(errors[0]!.mail, 'owner');
  });
});
