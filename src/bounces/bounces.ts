// Bounces and complaints in one piece for the composition (docs/bounces.md "Suppression"): the policy every intake
// reports to (the sink), the guard every outgoing mail passes (checks, tags, refusals), both over the backend's
// store and one tag key, and the purge that forgets what old tags stood for. It needs only stores: a complaint
// takes its address off every list in the newsletter's store, so bounces are built before anything that sends.
import type { BouncesConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { NewsletterStore } from '../newsletter/newsletter-store.js';
import type { Clock, RandomBytes, Timers } from '../ports.js';
import type { BounceSink } from './bounce-report.js';
import { BOUNCE_RECORD_DAYS, type BounceStore } from './bounce-store.js';
import { createBounceGuard, type BounceGuard } from './guard.js';
import { createBouncePolicy } from './policy.js';
import { bounceKeyOf, createVerp, type Verp } from './verp.js';

const DAY_MS = 86_400_000;
/** How often sent mails older than BOUNCE_RECORD_DAYS are forgotten. */
const PURGE_INTERVAL_MS = 6 * 3_600_000;

export interface BouncesDeps {
  settings: Pick<BouncesConfig, 'address' | 'soft_limit' | 'soft_days'>;
  store: BounceStore;
  /** The state store's secret (the newsletter's): the tag key is derived from it, so every replica signs alike. */
  secret(): Promise<Buffer>;
  /** Whether `address` (lower-cased) is one of the owner's: a form's `to`, `mail.to`, an /admin user's address. */
  isOwnerAddress(address: string): Promise<boolean>;
  /** The newsletter's records: a complaint takes its address off every list there. */
  subscribers: Pick<NewsletterStore, 'removeEverywhere'>;
  clock: Clock;
  /** When the purge runs again. */
  timers: Timers;
  randomBytes: RandomBytes;
  logger: Logger;
}

export interface Bounces {
  /** Where the intakes (the mailbox, the providers' webhooks) hand their reports. */
  sink: BounceSink;
  /** What every outgoing mail passes. */
  guard: BounceGuard;
  /** Forgets old sent mails now, then every 6 hours. */
  start(): void;
  close(): Promise<void>;
}

export function createBounces(deps: BouncesDeps): Bounces {
  const { store, logger, settings } = deps;
  let verp: Promise<Verp> | undefined;
  // Read once; a failure (the database out of reach) is tried again at the next use.
  const verpOf = () =>
    (verp ??= deps.secret().then(
      (secret) => createVerp(bounceKeyOf(secret)),
      (error: unknown) => {
        verp = undefined;
        throw error;
      },
    ));
  const sink = createBouncePolicy({
    store,
    verp: verpOf,
    isOwnerAddress: deps.isOwnerAddress,
    subscribers: deps.subscribers,
    clock: deps.clock,
    softLimit: settings.soft_limit,
    softDays: settings.soft_days,
    logger,
  });
  const guard = createBounceGuard({ store, verp: verpOf, address: settings.address, sink, clock: deps.clock, randomBytes: deps.randomBytes, logger });
  const { timers } = deps;
  let timer: unknown;
  let purging: Promise<void> | undefined;
  let closed = false;

  const purge = () => {
    purging ??= store
      .purgeSent(deps.clock() - BOUNCE_RECORD_DAYS * DAY_MS)
      .then(
        (purged) => {
          if (purged > 0) logger.info({ event: 'bounce_records_purged', purged }, 'sent mails older than the bounce records live were forgotten');
        },
        (error: unknown) => logger.warn({ event: 'bounce_purge_failed', reason: safeReason(error) }, 'old bounce records could not be purged; tried again later'),
      )
      .finally(() => (purging = undefined));
  };
  const purgeAndRepeat = () => {
    purge();
    if (!closed) timer = timers.setTimeout(purgeAndRepeat, PURGE_INTERVAL_MS);
  };

  return {
    sink,
    guard,
    start: purgeAndRepeat,
    async close() {
      closed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      await purging;
    },
  };
}
