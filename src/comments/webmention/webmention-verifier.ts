// Verification of the webmentions received (docs/comments.md "Verification"): a few at a time, each one claimed
// from the inbox of the comment store, so that one process verifies it, then settled there. It claims when a
// webmention is received here, and every `pollIntervalMs` for those received by another replica, left by a
// process that stopped, or whose claim ran out. Settled webmentions are forgotten after `keepMs`.
import type { Clock, Timers } from '../../ports.js';
import type { InboxWebmention, SettledStatus, WebmentionInbox } from '../webmention-inbox.js';
import type { ReceivedWebmention, VerifyOutcome } from './verify-webmention.js';

export interface VerifierDeps {
  inbox: WebmentionInbox;
  verify(mention: ReceivedWebmention): Promise<VerifyOutcome>;
  /** The time of claims, leases and statuses (the time the records carry). */
  clock: Clock;
  /** What the polls wait on. */
  timers: Timers;
  /** Webmentions verified at once. */
  concurrency: number;
  pollIntervalMs: number;
  /** How long a settled webmention's status is kept. */
  keepMs: number;
  /** Hears a verification, or a claim, that failed for a reason of this server's. */
  onError(error: unknown, mention?: InboxWebmention): void;
}

export interface WebmentionVerifier {
  /** Claims at once (a webmention was just received) and then every poll interval. */
  start(): void;
  /** Claims now, beside the polls. */
  wake(): void;
  /** No more claims; resolves once the verifications under way ended. */
  close(): Promise<void>;
}

/** What a status page says of a webmention that could not be checked for a reason of this server's. */
const NOT_CHECKED: SettledStatus = { status: 'refused', reason: 'The source could not be checked; send it again later.' };

export function createWebmentionVerifier(deps: VerifierDeps): WebmentionVerifier {
  const { inbox, timers } = deps;
  const underWay = new Set<Promise<void>>();
  let claiming: Promise<void> | undefined;
  let again = false;
  let running = false;
  let poll: unknown;
  let lastForget = -Infinity;
  let claimFailing = false;

  const verifyOne = async (mention: InboxWebmention) => {
    let outcome: SettledStatus;
    try {
      const verified = await deps.verify({ source: mention.source, target: mention.target, post: { slug: mention.slug, lang: mention.lang } });
      outcome = verified.status === 'accepted' ? { status: 'accepted' } : verified;
    } catch (error) {
      deps.onError(error, mention);
      outcome = NOT_CHECKED;
    }
    // A settle that fails leaves the webmention pending: it is verified again once its claim ran out.
    await inbox.settle(mention.id, outcome).catch((error: unknown) => deps.onError(error, mention));
  };

  const claim = async () => {
    const room = deps.concurrency - underWay.size;
    if (room <= 0) return;
    const now = deps.clock();
    if (now - lastForget >= deps.keepMs / 24) {
      lastForget = now;
      await inbox.forget(now - deps.keepMs).catch((error: unknown) => deps.onError(error));
    }
    for (const mention of await inbox.claim(room, now)) {
      const work = verifyOne(mention).finally(() => {
        underWay.delete(work);
        pump();
      });
      underWay.add(work);
    }
  };

  /** One claim at a time; a wake during a claim claims once more after it. */
  function pump(): void {
    if (!running) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claim()
      .then(() => {
        claimFailing = false;
      })
      .catch((error: unknown) => {
        // A store that cannot be reached (PostgreSQL away, or not migrated yet) is logged once, not every poll.
        if (!claimFailing) deps.onError(error);
        claimFailing = true;
      })
      .finally(() => {
        claiming = undefined;
        if (again) {
          again = false;
          pump();
        }
      });
  }

  const arm = () => {
    poll = timers.setTimeout(() => {
      pump();
      if (running) arm();
    }, deps.pollIntervalMs);
  };

  return {
    start() {
      running = true;
      arm();
      pump();
    },
    wake: pump,
    async close() {
      running = false;
      if (poll !== undefined) timers.clearTimeout(poll);
      await claiming;
      await Promise.all([...underWay]);
    },
  };
}
