// The bounce mailbox against a real Dovecot (test/support/dovecot-server.ts): what is read goes to the sink and
// is then moved, never deleted; a sink that fails leaves the message for the next poll; polls never overlap; a
// mailbox out of reach is a warning and a new try at the next poll. The classifier is a stub reading a few
// headers, so these tests are about the mailbox, not about reading bounces. Poll time is a manual timer.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startBounceMailbox, type BounceMailbox, type BounceMailboxDeps, type BounceMailboxSettings, type MailboxVerdict } from '../../../src/adapters/mail/bounce-mailbox.js';
import type { BounceOutcome, BounceReport, BounceSink } from '../../../src/bounces/bounce-report.js';
import { classifyBounce } from '../../../src/bounces/classify.js';
import { createTestClock, TEST_EPOCH_MS } from '../../support/clock.js';
import { startDovecotServer, type TestDovecot } from '../../support/dovecot-server.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';

const POLL_SECONDS = 60;

/** A timer that fires only when the test says so. */
function manualTimer(): BounceMailboxDeps['timers'] & { pending(): number[]; fire(): void } {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let nextId = 0;
  return {
    setTimeout(fn, ms) {
      nextId += 1;
      timers.set(nextId, { fn, ms });
      return nextId;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    pending: () => [...timers.values()].map((timer) => timer.ms),
    fire() {
      const due = [...timers.values()];
      timers.clear();
      for (const timer of due) timer.fn();
    },
  };
}

/**
 * Stands in for src/bounces/classify.ts where a test needs what it cannot give: a DSN's Final-Recipient and Status
 * make a hard or soft bounce, `Auto-Submitted: auto-replied` an auto-reply (a `none` with a reason), `X-Test:
 * unreadable` a message it cannot read; anything else none.
 */
async function stubClassify(raw: Buffer): Promise<MailboxVerdict> {
  const text = raw.toString('utf8');
  if (/^X-Test: unreadable/m.test(text)) throw new TypeError('unreadable');
  const to = text.match(/^To: (.+)$/m)?.[1]?.trim();
  const sentTo = to ? [to] : [];
  if (/^Auto-Submitted: auto-replied/m.test(text)) return { kind: 'none', reason: 'automatic reply', sentTo };
  const recipient = text.match(/^Final-Recipient: rfc822; ?(.+)$/m)?.[1]?.trim();
  const status = text.match(/^Status: (\d\.\d+\.\d+)/m)?.[1];
  if (recipient && status) return { kind: status.startsWith('5') ? 'hard' : 'soft', recipient, status, reason: 'stub', sentTo };
  return { kind: 'none', sentTo };
}

function dsn(recipient: string, status = '5.1.1', tag = 'abc'): string {
  return [
    'From: MAILER-DAEMON@mx.example.net',
    `To: bounces+${tag}@example.com`,
    'Subject: Undelivered Mail Returned to Sender',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    '',
    '--b',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    `Status: ${status}`,
    '--b--',
    '',
  ].join('\r\n');
}

function plain(subject: string, extra: string[] = []): string {
  return ['From: someone@example.org', 'To: owner@example.com', `Subject: ${subject}`, ...extra, '', 'Hello.', ''].join('\r\n');
}

/** A sink recording what it was handed; `failNext` rejects that many calls, `hold` keeps the next call pending. */
function recordingSink() {
  const reports: BounceReport[] = [];
  let failNext = 0;
  let held: { release: () => void; reached: Promise<void> } | undefined;
  let reachedHeld: () => void = () => undefined;
  const sink: BounceSink & { reports: BounceReport[]; failNext(count: number): void; hold(): { reached: Promise<void>; release: () => void } } = {
    reports,
    failNext(count) {
      failNext = count;
    },
    hold() {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const reached = new Promise<void>((resolve) => (reachedHeld = resolve));
      held = { release, reached: released };
      return { reached, release };
    },
    async record(report): Promise<BounceOutcome> {
      if (held) {
        const waiting = held;
        held = undefined;
        reachedHeld();
        await waiting.reached;
      }
      if (failNext > 0) {
        failNext -= 1;
        throw Object.assign(new Error('store down'), { code: 'ECONNREFUSED' });
      }
      reports.push(report);
      return report.kind === 'none' ? 'ignored' : 'counted';
    },
  };
  return sink;
}

describe('the bounce mailbox', () => {
  let dovecot: TestDovecot;
  let logs: LogCapture;
  let timer: ReturnType<typeof manualTimer>;
  let sink: ReturnType<typeof recordingSink>;
  const open: BounceMailbox[] = [];

  before(async () => {
    dovecot = await startDovecotServer();
  });
  after(async () => {
    for (const mailbox of open.splice(0)) await mailbox.close();
    await dovecot?.close();
  });
  beforeEach(async () => {
    for (const mailbox of open.splice(0)) await mailbox.close();
    await emptyAccount(dovecot);
    logs = captureLogs();
    timer = manualTimer();
    sink = recordingSink();
  });

  const settingsOf = (overrides: Partial<BounceMailboxSettings> = {}): BounceMailboxSettings => ({
    host: dovecot.host,
    port: dovecot.port,
    secure: false,
    user: dovecot.user,
    password: dovecot.password,
    folder: 'INBOX',
    pollSeconds: POLL_SECONDS,
    ...overrides,
  });
  const start = (overrides: Partial<BounceMailboxSettings> = {}) => {
    const mailbox = startBounceMailbox(settingsOf(overrides), { sink, classify: stubClassify, logger: logs.logger, clock: createTestClock(), timers: timer, timeoutMs: 5_000 });
    open.push(mailbox);
    return mailbox;
  };
  const events = (name: string) => logs.lines().filter((line) => line.event === name);

  it('hands each message to the sink, then moves bounces and auto-replies to Processed and the rest to Unrecognised, deleting nothing', async () => {
    await dovecot.append(dsn('Gone@Example.org'));
    await dovecot.append(plain('Out of office', ['Auto-Submitted: auto-replied']));
    await dovecot.append(plain('A question'));
    await dovecot.append(plain('Garbled', ['X-Test: unreadable']));

    const summary = await start().poll();

    assert.deepEqual(summary, { reached: true, processed: 2, unrecognised: 2, left: 0 });
    assert.deepEqual(await dovecot.counts(), { INBOX: 0, Processed: 2, Unrecognised: 2 });
    // The unreadable message reaches no sink; the auto-reply is a `none` with a reason, so it counts as classified.
    assert.deepEqual(sink.reports, [
      { source: 'imap', kind: 'hard', recipient: 'gone@example.org', status: '5.1.1', reason: 'stub', sentTo: ['bounces+abc@example.com'], at: TEST_EPOCH_MS },
      { source: 'imap', kind: 'none', reason: 'automatic reply', sentTo: ['owner@example.com'], at: TEST_EPOCH_MS },
      { source: 'imap', kind: 'none', sentTo: ['owner@example.com'], at: TEST_EPOCH_MS },
    ]);
    assert.equal(events('bounce_unreadable').length, 1);
  });

  it('sorts with the real classifier: a DSN and an auto-reply to Processed, ordinary mail to Unrecognised', async () => {
    await dovecot.append(dsn('Gone@Example.org'));
    await dovecot.append(plain('Out of office', ['Auto-Submitted: auto-replied']));
    await dovecot.append(plain('A question'));
    const mailbox = startBounceMailbox(settingsOf(), { sink, classify: classifyBounce, logger: logs.logger, clock: createTestClock(), timers: timer, timeoutMs: 5_000 });
    open.push(mailbox);

    assert.deepEqual(await mailbox.poll(), { reached: true, processed: 2, unrecognised: 1, left: 0 });
    assert.deepEqual(await dovecot.counts(), { INBOX: 0, Processed: 2, Unrecognised: 1 });
    assert.deepEqual(sink.reports[0], { source: 'imap', kind: 'hard', recipient: 'gone@example.org', status: '5.1.1', sentTo: ['bounces+abc@example.com'], at: TEST_EPOCH_MS });
  });

  it('moves a message only once the sink resolved', async () => {
    await dovecot.append(dsn('late@example.org'));
    const held = sink.hold();
    const mailbox = start();
    await held.reached;
    // The sink has the report but has not answered: the message is still where it arrived.
    assert.deepEqual(await dovecot.counts(), { INBOX: 1, Processed: 0, Unrecognised: 0 });
    held.release();
    await mailbox.poll();
    assert.deepEqual(await dovecot.counts(), { INBOX: 0, Processed: 1, Unrecognised: 0 });
  });

  it('leaves the message in the folder when the sink fails, and hands it again at the next poll', async () => {
    await dovecot.append(dsn('first@example.org'));
    await dovecot.append(dsn('second@example.org'));
    sink.failNext(1);
    const mailbox = start();

    assert.deepEqual(await mailbox.poll(), { reached: true, processed: 0, unrecognised: 0, left: 2 });
    assert.deepEqual(await dovecot.counts(), { INBOX: 2, Processed: 0, Unrecognised: 0 });
    assert.equal(sink.reports.length, 0);
    assert.equal(events('bounce_sink_failed')[0]?.level, 40);

    timer.fire();
    assert.deepEqual(await mailbox.poll(), { reached: true, processed: 2, unrecognised: 0, left: 0 });
    assert.deepEqual(sink.reports.map((report) => report.recipient), ['first@example.org', 'second@example.org']);
    assert.deepEqual(await dovecot.counts(), { INBOX: 0, Processed: 2, Unrecognised: 0 });
  });

  it('never runs two polls at once: a burst of polls and the timer join the one under way', async () => {
    for (let index = 0; index < 3; index += 1) await dovecot.append(dsn(`burst${index}@example.org`));
    const mailbox = start();
    timer.fire();
    const burst = await Promise.all(Array.from({ length: 8 }, () => mailbox.poll()));

    assert.equal(new Set(burst.map((summary) => JSON.stringify(summary))).size, 1);
    // Each message reached the sink once; a second poll running beside the first would have handed it twice.
    assert.deepEqual(sink.reports.map((report) => report.recipient).sort(), ['burst0@example.org', 'burst1@example.org', 'burst2@example.org']);
    assert.deepEqual(await dovecot.counts(), { INBOX: 0, Processed: 3, Unrecognised: 0 });
    // One next poll is due, poll_seconds after this one ended.
    assert.deepEqual(timer.pending(), [POLL_SECONDS * 1000]);
  });

  it('logs a mailbox it cannot reach as a warning, and tries again at the next poll', async () => {
    await dovecot.stop();
    try {
      const mailbox = start();
      assert.deepEqual(await mailbox.poll(), { reached: false, processed: 0, unrecognised: 0, left: 0 });
      const [warning] = events('bounce_mailbox_unreachable');
      assert.equal(warning?.level, 40);
      assert.equal(warning?.reason, 'ECONNREFUSED');
      assert.deepEqual(timer.pending(), [POLL_SECONDS * 1000]);

      timer.fire();
      await mailbox.poll();
      assert.equal(events('bounce_mailbox_unreachable').length, 2);
    } finally {
      await dovecot.start();
    }
    await dovecot.append(dsn('back@example.org'));
    timer.fire();
    assert.deepEqual(await open[0]!.poll(), { reached: true, processed: 1, unrecognised: 0, left: 0 });
    assert.deepEqual(sink.reports.map((report) => report.recipient), ['back@example.org']);
  });

  it('once closed, finishes the message in hand, then stops without scheduling another poll', async () => {
    await dovecot.append(dsn('one@example.org'));
    await dovecot.append(dsn('two@example.org'));
    const held = sink.hold();
    const mailbox = start();
    await held.reached;
    let closed = false;
    const closing = mailbox.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, false, 'close waits for the poll under way');
    held.release();
    await closing;
    assert.deepEqual(timer.pending(), []);
    assert.deepEqual(await dovecot.counts(), { INBOX: 1, Processed: 1, Unrecognised: 0 });
  });

  // Last: Dovecot slows the next logins from an address that failed one, for seconds.
  it('logs a refused login without the account or password, and keeps polling', async () => {
    const mailbox = start({ password: 'wrong-password' });
    assert.equal((await mailbox.poll()).reached, false);
    assert.equal(events('bounce_mailbox_unreachable')[0]?.reason, 'authentication_failed');
    assert.ok(!logs.text().includes('wrong-password'));
    assert.deepEqual(timer.pending(), [POLL_SECONDS * 1000]);
  });
});

/** Every message deleted and every folder but INBOX removed: each test starts from an empty account. */
async function emptyAccount(dovecot: TestDovecot): Promise<void> {
  const client = await dovecot.connect();
  try {
    for (const mailbox of await client.list()) {
      if (mailbox.path === 'INBOX') {
        const lock = await client.getMailboxLock('INBOX');
        try {
          await client.messageDelete('1:*');
        } finally {
          lock.release();
        }
      } else {
        await client.mailboxDelete(mailbox.path);
      }
    }
  } finally {
    await client.logout();
  }
}
