// Which campaign the feeder (campaign-feeder.ts) sends next (docs/newsletter.md "Sending a post"): the oldest that is
// not finished, not set aside in this process (its form is gone, a file is unreadable) and not paused. What it saw
// is kept, so a finished campaign's journal is not read again and a paused one's only once a minute (a resume in
// another process); a resume in this one clears it at once.
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Timers } from '../../ports.js';
import { foldJournal, type CampaignRequest } from './campaign.js';
import type { CampaignStore } from './campaign-store.js';

/** How long a campaign seen paused is not read again (a resume in this process clears it at once). */
const PAUSED_RECHECK_MS = 60_000;

export interface CampaignChoice {
  /** The campaign to send now, oldest first; undefined when there is none. */
  next(): Promise<CampaignRequest | undefined>;
  /** Campaign `id` finished: its journal is not read again. */
  finished(id: string): void;
  /** Leaves `request` alone until the next start, saying why once. */
  setAside(request: CampaignRequest, reason: 'form_missing' | 'unreadable', error?: unknown): void;
  /** Campaign `id` was resumed here: it may be chosen at once. */
  resumed(id: string): void;
}

export function createCampaignChoice(deps: { store: Pick<CampaignStore, 'list' | 'readJournal'>; timers: Timers; logger: Logger }): CampaignChoice {
  const { store, timers, logger } = deps;
  /** Campaigns seen finished: their journals are not read again. */
  const finished = new Set<string>();
  /** Campaigns that cannot go on in this process (their form is gone, a file is unreadable). */
  const setAsideIds = new Set<string>();
  /** Campaigns seen paused, and when: their journals are read again only after PAUSED_RECHECK_MS (a resume elsewhere). */
  const pausedSeen = new Map<string, number>();

  return {
    async next() {
      for (const request of await store.list()) {
        if (finished.has(request.id) || setAsideIds.has(request.id)) continue;
        const seenPaused = pausedSeen.get(request.id);
        if (seenPaused !== undefined && timers.now() - seenPaused < PAUSED_RECHECK_MS) continue;
        const lines = await store.readJournal(request.id);
        if (lines.some((line) => 'finished_at' in line)) {
          finished.add(request.id);
          continue;
        }
        // A paused campaign waits for "Resume"; the next one goes meanwhile.
        if (!foldJournal(lines, 0).paused) return request;
        pausedSeen.set(request.id, timers.now());
      }
      return undefined;
    },
    finished: (id) => void finished.add(id),
    setAside(request, reason, error) {
      if (setAsideIds.has(request.id)) return;
      setAsideIds.add(request.id);
      logger.error(
        { event: 'campaign_set_aside', campaign: request.id, form: request.form, reason, ...(error === undefined ? {} : { detail: safeReason(error) }) },
        reason === 'form_missing' ? 'the campaign waits: its newsletter form is not in the configuration' : 'the campaign cannot be read; it is left as it is',
      );
    },
    resumed: (id) => void pausedSeen.delete(id),
  };
}
