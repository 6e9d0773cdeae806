// The bounce mailbox (docs/bounces.md "Where bounces come from"): every `poll_seconds`, and once at start, the
// IMAP folder where bounces arrive is read message by message; each is classified, its report handed to the
// sink, and only once the sink resolved is it moved to `Processed` (anything classified: a bounce, a complaint, an
// automatic reply) or `Unrecognised` (no bounce at all, or a message the classifier could not read). Nothing is ever deleted: a message that was not
// moved is read again at the next poll, so the sink sees a repeat after a crash or a failure. A mailbox out of
// reach is a warning and a try at the next poll; polls never overlap.
import type { ImapFlow } from 'imapflow';
import type * as Imap from 'imapflow';
import type { BounceKind, BounceReport, BounceSink } from '../../bounces/bounce-report.js';
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Clock, Timers } from '../../ports.js';
import { lazyModule } from '../../kit/lazy-module.js';

// Loaded on the first poll: imapflow and its charsets are a fifth of the bundle, which a start without a bounce
// mailbox would parse for nothing (docs/performance.md "Blog start-up").
const imap = lazyModule<typeof Imap>('imapflow');

/** `[mail.bounces.imap]`. */
export interface BounceMailboxSettings {
  host: string;
  port: number;
  /** TLS from the start (993); otherwise plain IMAP, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  password: string;
  /** Where bounces arrive ("INBOX"). */
  folder: string;
  pollSeconds: number;
}

/** What the classifier says of one message (src/bounces/classify.ts `BounceVerdict`). */
export interface MailboxVerdict {
  kind: BounceKind;
  recipient?: string;
  status?: string;
  /** Set on a `none` the classifier recognised (an automatic reply, a delivery report); absent on ordinary mail. */
  reason?: string;
  sentTo: readonly string[];
}

export interface BounceMailboxDeps {
  sink: BounceSink;
  classify(raw: Buffer): Promise<MailboxVerdict>;
  logger: Logger;
  /** When a message was read: the `at` of its report. */
  clock: Clock;
  /** The poll schedule: Node's timers in a service (a mailbox waiting for its next poll keeps no process running), fake time in tests. */
  timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>;
  /** How long connecting and each step may take, in ms; 30 s unless a test needs less. */
  timeoutMs?: number;
}

/** The folders read messages are moved to, made when missing. */
export const PROCESSED_FOLDER = 'Processed';
export const UNRECOGNISED_FOLDER = 'Unrecognised';

/** What one poll did. */
export interface PollSummary {
  /** False when the mailbox could not be reached or read. */
  reached: boolean;
  processed: number;
  unrecognised: number;
  /** Messages left in the folder because the sink failed. */
  left: number;
}

export interface BounceMailbox {
  /** Polls now, or joins the poll under way; never rejects. */
  poll(): Promise<PollSummary>;
  /** Stops the schedule and waits for a poll under way to end (it stops after the message in hand). */
  close(): Promise<void>;
}

/** Starts polling `settings.folder`: once now, then `pollSeconds` after each poll ended. */
export function startBounceMailbox(settings: BounceMailboxSettings, deps: BounceMailboxDeps): BounceMailbox {
  const { logger } = deps;
  const timer = deps.timers;
  let running: Promise<PollSummary> | undefined;
  let scheduled: unknown;
  let stopped = false;

  const poll = (): Promise<PollSummary> => {
    running ??= pollOnce(settings, deps, () => stopped)
      .catch((error: unknown) => {
        logger.error({ event: 'bounce_mailbox_failed', reason: safeReason(error) }, 'bounce mailbox poll failed');
        return { reached: false, processed: 0, unrecognised: 0, left: 0 };
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const tick = () => {
    scheduled = undefined;
    void poll().then(() => {
      if (!stopped) scheduled = timer.setTimeout(tick, settings.pollSeconds * 1000);
    });
  };
  logger.info({ event: 'bounce_mailbox_started', host: settings.host, folder: settings.folder, poll_seconds: settings.pollSeconds }, 'polling the bounce mailbox');
  tick();

  return {
    poll,
    async close() {
      stopped = true;
      if (scheduled !== undefined) timer.clearTimeout(scheduled);
      scheduled = undefined;
      await running;
    },
  };
}

/** One poll: connect, read the folder, log out. Every failure is logged here; the next poll tries again. */
async function pollOnce(settings: BounceMailboxSettings, deps: BounceMailboxDeps, isStopped: () => boolean): Promise<PollSummary> {
  const { logger } = deps;
  const summary: PollSummary = { reached: false, processed: 0, unrecognised: 0, left: 0 };
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const client = new (imap().ImapFlow)({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 4,
  });
  // A connection that breaks later is reported by the command that was waiting on it; without a listener the
  // event itself would end the process.
  client.on('error', () => undefined);
  const where = { host: settings.host, port: settings.port, folder: settings.folder };
  try {
    await client.connect();
  } catch (error) {
    logger.warn({ event: 'bounce_mailbox_unreachable', ...where, reason: imapReason(error) }, 'bounce mailbox cannot be reached; trying again at the next poll');
    client.close();
    return summary;
  }
  try {
    await ensureFolders(client);
    const lock = await client.getMailboxLock(settings.folder);
    try {
      summary.reached = true;
      const uids = (await client.search({ all: true }, { uid: true })) || [];
      for (const [index, uid] of uids.entries()) {
        if (isStopped()) break;
        const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
        // Gone meanwhile (another reader moved it): nothing to do.
        if (!message || !message.source) continue;
        const destination = await settle(message.source, deps);
        if (destination === undefined) {
          summary.left = uids.length - index;
          break;
        }
        await client.messageMove(String(uid), destination, { uid: true });
        if (destination === PROCESSED_FOLDER) summary.processed += 1;
        else summary.unrecognised += 1;
      }
    } finally {
      lock.release();
    }
    await client.logout();
  } catch (error) {
    summary.reached = false;
    logger.warn({ event: 'bounce_mailbox_failed', ...where, reason: imapReason(error) }, 'bounce mailbox could not be read; trying again at the next poll');
    client.close();
  }
  if (summary.processed + summary.unrecognised > 0) {
    logger.info({ event: 'bounce_mailbox_read', processed: summary.processed, unrecognised: summary.unrecognised }, 'bounce mailbox read');
  }
  return summary;
}

/**
 * Classifies one message and hands its report to the sink; the folder it goes to, or undefined when the sink
 * failed (the message stays, and the poll ends: the sink's store is likely out of reach for the next ones too).
 */
async function settle(source: Buffer, deps: BounceMailboxDeps): Promise<string | undefined> {
  let verdict: MailboxVerdict;
  try {
    verdict = await deps.classify(source);
  } catch (error) {
    deps.logger.warn({ event: 'bounce_unreadable', reason: safeReason(error) }, 'a message in the bounce mailbox could not be read; moved to Unrecognised');
    return UNRECOGNISED_FOLDER;
  }
  try {
    await deps.sink.record(reportOf(verdict, deps.clock()));
  } catch (error) {
    deps.logger.warn({ event: 'bounce_sink_failed', source: 'imap', reason: safeReason(error) }, 'bounce not recorded; the message stays for the next poll');
    return undefined;
  }
  return isRecognised(verdict) ? PROCESSED_FOLDER : UNRECOGNISED_FOLDER;
}

/** A bounce, a complaint, or a `none` the classifier named (it gives ordinary mail no reason). */
function isRecognised(verdict: MailboxVerdict): boolean {
  return verdict.kind !== 'none' || verdict.reason !== undefined;
}

function reportOf(verdict: MailboxVerdict, at: number): BounceReport {
  const report: BounceReport = { source: 'imap', kind: verdict.kind, sentTo: [...verdict.sentTo], at };
  if (verdict.recipient !== undefined) report.recipient = verdict.recipient.toLowerCase();
  if (verdict.status !== undefined) report.status = verdict.status;
  if (verdict.reason !== undefined) report.reason = verdict.reason;
  return report;
}

/** Creates Processed and Unrecognised when the account lacks them. */
async function ensureFolders(client: ImapFlow): Promise<void> {
  const existing = new Set((await client.list()).map((mailbox) => mailbox.path));
  for (const folder of [PROCESSED_FOLDER, UNRECOGNISED_FOLDER]) {
    if (!existing.has(folder)) await client.mailboxCreate(folder);
  }
}

/**
 * What may be logged of an IMAP failure: a refused login, a code (imapflow's `NoConnection`, Node's
 * `ECONNREFUSED`), never the server's text, which may quote the account.
 */
function imapReason(error: unknown): string {
  const details = (error ?? {}) as { authenticationFailed?: unknown; code?: unknown };
  if (details.authenticationFailed === true) return 'authentication_failed';
  if (typeof details.code === 'string' && /^[A-Za-z][A-Za-z0-9_]*$/.test(details.code)) return details.code;
  return safeReason(error);
}
