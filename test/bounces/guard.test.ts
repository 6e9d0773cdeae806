// The guard every outgoing mail passes (src/bounces/guard.ts, docs/bounces.md "On the way out"), over an in-memory
// store: only mails to visitors and subscribers are held back, owner mails never (the list is not even asked); a
// mail that leaves gets its tag, recorded first; a record that cannot be written lets the mail leave untagged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceReport } from '../../src/bounces/bounce-report.js';
import type { BounceStore, SentMail } from '../../src/bounces/bounce-store.js';
import { createBounceGuard, type MailContext } from '../../src/bounces/guard.js';
import { bounceKeyOf, createVerp } from '../../src/bounces/verp.js';
import type { MailMessage } from '../../src/ports.js';
import type { MailKind } from '../../src/queue/outgoing.js';
import { captureLogs } from '../support/log-capture.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

const verp = createVerp(bounceKeyOf(Buffer.alloc(32, 5)));

function setUp(options: { failRecord?: boolean } = {}) {
  const asked: string[] = [];
  const recorded: SentMail[] = [];
  const reports: BounceReport[] = [];
  const store = {
    async isSuppressed(address: string) {
      asked.push(address);
      return address.toLowerCase() === 'gone@example.org';
    },
    async recordSent(mail: SentMail) {
      if (options.failRecord) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      recorded.push(mail);
    },
  } as unknown as BounceStore;
  const logs = captureLogs();
  const guard = createBounceGuard({
    store,
    verp: async () => verp,
    address: 'bounces@example.com',
    sink: { record: async (report) => (reports.push(report), 'counted') },
    clock: () => Date.UTC(2026, 10, 2),
    randomBytes: createCountingRandomBytes(),
    logger: logs.logger,
  });
  return { guard, asked, recorded, reports, logs };
}

const mail = (to: string): MailMessage => ({ from: 'forms@example.com', to, subject: 'S', text: 'T', autoSubmitted: 'auto-generated' });
const context = (kind: MailKind): MailContext => ({ kind, form: '/contact' });

describe('the guard on the way out', () => {
  it('holds back receipts, confirmations and campaign mails to a suppressed address, and nothing else', async () => {
    const { guard, asked } = setUp();
    for (const kind of ['receipt', 'confirmation', 'newsletter'] as const) assert.equal(await guard.prepare(mail('Gone@example.org'), context(kind)), undefined, kind);
    for (const kind of ['test', 'invitation'] as const) assert.ok(await guard.prepare(mail('gone@example.org'), context(kind)), kind);
    asked.length = 0;
    for (const kind of ['owner', 'subscriber_notice'] as const) assert.ok(await guard.prepare(mail('gone@example.org'), context(kind)), kind);
    assert.deepEqual(asked, [], 'an owner mail does not even ask the list');
  });

  it('records what the tag stands for before the mail leaves with it', async () => {
    const { guard, recorded } = setUp();
    const prepared = await guard.prepare(mail('Owner <owner@example.com>, second@example.com'), { kind: 'owner', form: '/contact' });
    assert.match(prepared!.envelopeFrom!, /^bounces\+[a-z2-7]{32}@example\.com$/);
    const reading = verp.read([prepared!.envelopeFrom!]);
    assert.deepEqual(recorded.map((sent) => ({ id: sent.id, to: sent.to, owner: sent.owner })), [
      { id: reading !== 'forged' ? reading?.id : undefined, to: ['owner@example.com', 'second@example.com'], owner: true },
    ]);
  });

  it('lets a mail leave untagged when its record cannot be written', async () => {
    const { guard, logs } = setUp({ failRecord: true });
    const prepared = await guard.prepare(mail('visitor@example.org'), context('receipt'));
    assert.deepEqual(prepared, mail('visitor@example.org'));
    const line = logs.lines().find((entry) => entry.event === 'bounce_tag_failed');
    assert.equal(line?.reason, 'ENOSPC');
  });
});
