// The automations' records in data_dir (docs/newsletter.md "Automations"): one JSONL file, each line fsynced before
// it counts, read once and then kept in memory (one process serves a data_dir). A registration and its baseline are
// one line, so a crash leaves both or neither; so are the addresses a campaign takes for a post.
import path from 'node:path';
import type { AppendLine } from '../../ports.js';
import { readStateLines } from '../../newsletter/durable-file.js';
import type { AutomationItem, AutomationState, AutomationStore, ItemOutcome } from '../../newsletter/automations/automation-store.js';

/** The file in data_dir. */
export const AUTOMATION_RUNS_FILE = 'newsletter-automation-runs.jsonl';

type Line =
  | { automation: string; added_at: string; baseline: string[] }
  | { automation: string; paused_at: string; by: string }
  | { automation: string; resumed_at: string; by: string }
  | { automation: string; item: string; outcome: ItemOutcome; campaign?: string; at: string }
  | { item: string; campaign: string; recipients: string[] };

export function createAutomationFiles(dataDir: string, appendLine: AppendLine): AutomationStore {
  const file = path.join(dataDir, AUTOMATION_RUNS_FILE);
  const states = new Map<string, AutomationState>();
  /** Per post item: the campaign each address (lower-cased) was given to. */
  const recipients = new Map<string, Map<string, string>>();
  /** Per automation: every item taken, baseline included. */
  const taken = new Map<string, Map<string, AutomationItem>>();
  let loaded: Promise<void> | undefined;

  const itemsOf = (automation: string) => {
    let items = taken.get(automation);
    if (!items) taken.set(automation, (items = new Map()));
    return items;
  };
  function apply(line: Line): void {
    if (typeof line !== 'object' || line === null) return;
    if (!('automation' in line)) {
      if (typeof line.item !== 'string' || typeof line.campaign !== 'string' || !Array.isArray(line.recipients)) return;
      let given = recipients.get(line.item);
      if (!given) recipients.set(line.item, (given = new Map()));
      for (const email of line.recipients) if (!given.has(email.toLowerCase())) given.set(email.toLowerCase(), line.campaign);
      return;
    }
    if (typeof line.automation !== 'string') return;
    const { automation } = line;
    if ('added_at' in line) {
      if (states.has(automation)) return;
      states.set(automation, { automation, addedAt: String(line.added_at) });
      const items = itemsOf(automation);
      for (const item of Array.isArray(line.baseline) ? line.baseline : []) {
        if (!items.has(item)) items.set(item, { automation, item, outcome: 'baseline', at: String(line.added_at) });
      }
    } else if ('paused_at' in line) {
      const state = states.get(automation);
      if (state) state.paused = { at: String(line.paused_at), by: String(line.by ?? '') };
    } else if ('resumed_at' in line) {
      const state = states.get(automation);
      if (state) delete state.paused;
    } else if (typeof line.item === 'string') {
      const items = itemsOf(automation);
      if (!items.has(line.item)) items.set(line.item, { automation, item: line.item, outcome: line.outcome, ...(line.campaign ? { campaign: line.campaign } : {}), at: String(line.at) });
    }
  }
  const load = () =>
    (loaded ??= readStateLines<Line>(file, 'automation runs').then(({ records }) => {
      for (const line of records) apply(line);
    }));
  const write = async (line: Line) => {
    await appendLine(file, line);
    apply(line);
  };

  return {
    async states() {
      await load();
      return [...states.values()].map((state) => ({ ...state }));
    },
    async register(automation, at, baseline) {
      await load();
      if (!states.has(automation)) await write({ automation, added_at: at, baseline: [...baseline] });
      return { ...states.get(automation)! };
    },
    async claim(entry) {
      await load();
      if (itemsOf(entry.automation).has(entry.item)) return false;
      await write({ automation: entry.automation, item: entry.item, outcome: entry.outcome, ...(entry.campaign ? { campaign: entry.campaign } : {}), at: entry.at });
      return true;
    },
    async claimedAmong(automation, items) {
      await load();
      const known = itemsOf(automation);
      return new Set(items.filter((item) => known.has(item)));
    },
    async runs(automation) {
      await load();
      return [...itemsOf(automation).values()].filter((entry) => entry.outcome !== 'baseline');
    },
    async claimRecipients(item, campaign, emails) {
      await load();
      const given = recipients.get(item);
      const fresh = [...new Set(emails.map((email) => email.toLowerCase()).filter((key) => !given?.has(key)))];
      if (fresh.length > 0) await write({ item, campaign, recipients: fresh });
      const now = recipients.get(item);
      return emails.filter((email) => now?.get(email.toLowerCase()) === campaign);
    },
    async isCampaignPaused(campaign) {
      await load();
      for (const [automation, items] of taken) {
        if (!states.get(automation)?.paused) continue;
        for (const entry of items.values()) if (entry.campaign === campaign) return true;
      }
      return false;
    },
    async setPaused(automation, { paused, at, by }) {
      await load();
      if (!states.has(automation)) return;
      await write(paused ? { automation, paused_at: at, by } : { automation, resumed_at: at, by });
    },
  };
}
