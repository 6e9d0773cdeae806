// What /admin does with the on_publish and digest automations (docs/newsletter.md "Pausing"): an overview of each,
// its last and next run and its campaigns' counts, and the pause kept in the state store, which every replica reads
// before it acts and which holds the automation's campaigns still sending.
import type { PostAutomation } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import type { CampaignRequest } from '../campaigns/campaign.js';
import type { CampaignStore } from '../campaigns/campaign-store.js';
import type { AutomationState, AutomationStore } from './automation-store.js';
import { nextRunAfter } from './digest-schedule.js';

/** What /admin shows of one automation. */
export interface AutomationOverview {
  automation: PostAutomation;
  /** The list or segment it mails. */
  audience: string;
  state?: AutomationState;
  /** RFC 3339 of the latest item it took. */
  lastRun?: string;
  /** Milliseconds: the next digest, or the next scheduled post; undefined when nothing is scheduled. */
  nextRun?: number;
  /** Items mailed (a campaign each), and items passed over (no posts, `newsletter = false`, sent by hand). */
  mailed: number;
  passed: number;
  /** The campaigns' counts. */
  sent: number;
  failed: number;
  skipped: number;
  recipients: number;
}

export interface AutomationControl {
  /** Every automation, for /admin. */
  overview(readProgress: (request: CampaignRequest) => Promise<{ sent: number; failed: number; skipped: number }>): Promise<AutomationOverview[]>;
  /** Pauses or resumes `id` on every replica; `unknown` when there is no such automation. */
  setPaused(id: string, paused: boolean, by: string): Promise<'done' | 'unknown'>;
}

export interface AutomationControlDeps {
  automations: readonly PostAutomation[];
  store: AutomationStore;
  campaigns: CampaignStore;
  posts: { nextScheduledAt(): number | undefined };
  timeZone: string;
  clock: Clock;
  logger: Logger;
  /** Records an automation not seen yet (its first run), so that it can be paused before it ran. */
  register(automation: PostAutomation): Promise<AutomationState>;
  /** Resumes a campaign held by a pause, through this process's feeder; appended to its journal without one. */
  resumeCampaign?(id: string, by: string): Promise<unknown>;
}

export function createAutomationControl(deps: AutomationControlDeps): AutomationControl {
  const { store, campaigns, posts, clock, logger } = deps;
  const isoOf = (ms: number) => new Date(ms).toISOString();
  return {
    async overview(readProgress) {
      const states = new Map((await store.states()).map((state) => [state.automation, state]));
      const now = clock();
      const overviews: AutomationOverview[] = [];
      for (const automation of deps.automations) {
        const runs = await store.runs(automation.id);
        const totals = { sent: 0, failed: 0, skipped: 0, recipients: 0 };
        for (const run of runs) {
          const request = run.campaign ? await campaigns.read(run.campaign).catch(() => undefined) : undefined;
          if (!request) continue;
          const progress = await readProgress(request);
          totals.sent += progress.sent;
          totals.failed += progress.failed;
          totals.skipped += progress.skipped;
          totals.recipients += request.recipients;
        }
        const state = states.get(automation.id);
        overviews.push({
          automation,
          audience: automation.segment !== undefined ? `segment ${automation.segment}` : `list ${automation.list}`,
          ...(state ? { state } : {}),
          ...(runs.length > 0 ? { lastRun: runs.at(-1)!.at } : {}),
          nextRun: automation.type === 'digest' ? nextRunAfter(automation, now, deps.timeZone) : posts.nextScheduledAt(),
          mailed: runs.filter((run) => run.outcome === 'campaign').length,
          passed: runs.filter((run) => run.outcome !== 'campaign').length,
          ...totals,
        });
      }
      return overviews;
    },
    async setPaused(id, paused, by) {
      const automation = deps.automations.find((candidate) => candidate.id === id);
      if (!automation) return 'unknown';
      const at = isoOf(clock());
      if (!(await store.states()).some((state) => state.automation === id)) await deps.register(automation);
      await store.setPaused(id, { paused, at, by });
      // Its campaigns still sending stop too, and go on when it is resumed (their journals say so to every replica).
      for (const run of await store.runs(id)) {
        if (!run.campaign || !(await campaigns.read(run.campaign).catch(() => undefined))) continue;
        const lines = await campaigns.readJournal(run.campaign);
        if (lines.some((line) => 'finished_at' in line)) continue;
        if (paused) await campaigns.append(run.campaign, { paused_at: at, reason: `automation ${id} paused by ${by}`, sent: 0, hard: 0, complaint: 0 });
        else if (deps.resumeCampaign) await deps.resumeCampaign(run.campaign, by);
        else await campaigns.append(run.campaign, { resumed_at: at, by, sent: 0, hard: 0, complaint: 0 });
      }
      logger.info({ event: paused ? 'automation_paused' : 'automation_resumed', automation: id, user: by }, paused ? 'automation paused' : 'automation resumed');
      return 'done';
    },
  };
}
