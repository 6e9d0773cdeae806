// Quarantined submissions are kept for their form's `spam_keep_days` (docs/spam.md "Quarantine"). Whichever backend
// keeps them, the store is wrapped here so that its first use after start, and then its first use in each hour,
// first forgets every form's entries older than that (and the used challenges that expired before): a quarantine
// nobody uses does not grow, and one in use never shows an entry more than an hour past its days.
import type { FormConfig } from '../config/config.js';
import type { SpamStore } from '../forms/spam/quarantine.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';

export const PRUNE_INTERVAL_MS = 3_600_000;
/** After a prune that failed (the database unreachable), the next one is due this much later. */
export const PRUNE_RETRY_MS = 60_000;
const DAY_MS = 86_400_000;

export interface SpamPruningOptions {
  forms: ReadonlyArray<Pick<FormConfig, 'path' | 'spam_keep_days'>>;
  logger: Logger;
  clock?: () => number;
}

/**
 * `store`, pruned on its first use and then at most once an hour. A failed prune is logged and tried again a minute
 * later; the call that found it due goes on either way.
 */
export function withSpamPruning(store: SpamStore, options: SpamPruningOptions): SpamStore {
  const clock = options.clock ?? Date.now;
  let lastPrune: number | undefined;
  let pruning: Promise<void> | undefined;

  const pruneAll = async (now: number) => {
    for (const form of options.forms) {
      try {
        const pruned = await store.prune(form.path, now - form.spam_keep_days * DAY_MS);
        if (pruned > 0) options.logger.info({ event: 'spam_pruned', form: form.path, count: pruned }, 'quarantined submissions older than spam_keep_days forgotten');
      } catch (error) {
        lastPrune = now - PRUNE_INTERVAL_MS + PRUNE_RETRY_MS;
        options.logger.warn({ event: 'spam_prune_failed', form: form.path, reason: safeReason(error) }, 'the quarantine could not be pruned; trying again in a minute');
        return;
      }
    }
  };

  /** Resolves once a prune that is due (or under way) is done. */
  const pruned = (): Promise<void> => {
    const now = clock();
    if (lastPrune === undefined || now - lastPrune >= PRUNE_INTERVAL_MS || now < lastPrune) {
      lastPrune = now;
      const run = pruneAll(now).finally(() => {
        if (pruning === run) pruning = undefined;
      });
      pruning = run;
    }
    return pruning ?? Promise.resolve();
  };

  return {
    useOnce: (id, expiresAt) => store.useOnce(id, expiresAt),
    quarantine: async (entry) => (await pruned(), store.quarantine(entry)),
    list: async (form, page) => (await pruned(), store.list(form, page)),
    count: async (form) => (await pruned(), store.count(form)),
    claim: (id, now, staleAfterMs) => store.claim(id, now, staleAfterMs),
    released: (id, now) => store.released(id, now),
    unclaim: (id) => store.unclaim(id),
    discard: (form, which, now, staleAfterMs) => store.discard(form, which, now, staleAfterMs),
    countByDay: async (since) => (await pruned(), store.countByDay(since)),
    prune: (form, before) => store.prune(form, before),
  };
}
