// Bounces and complaints in one piece for the composition (docs/bounces.md "Suppression"): the policy every intake
// reports to (the sink), the guard every outgoing mail passes (checks, tags, refusals), both over the backend's
// store and one tag key, and the purge that forgets what old tags stood for.
import type { BouncesConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { Clock, RandomBytes } from '../ports.js';
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
  /** Takes `address` off every newsletter list it is on (a complaint). */
  unsubscribeEverywhere(address: string): Promise<void>;
  clock: Clock;
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
    unsubscribeEverywhere: deps.unsubscribeEverywhere,
    softLimit: settings.soft_limit,
    softDays: settings.soft_days,
    logger,
  });
  const guard = createBounceGuard({ store, verp: verpOf, address: settings.address, sink, clock: deps.clock, randomBytes: deps.randomBytes, logger });
  let timer: NodeJS.Timeout | undefined;
  let purging: Promise<void> | undefined;

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

  return {
    sink,
    guard,
    start() {
      purge();
      timer = setInterval(purge, PURGE_INTERVAL_MS);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      await purging;
    },
  };
}
