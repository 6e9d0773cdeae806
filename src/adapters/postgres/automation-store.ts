// The automations' records in PostgreSQL (docs/newsletter.md "Automations"), shared by every replica: a
// registration and its baseline in one transaction, an item taken by the one insert its primary key lets through,
// an address of a post given to one campaign the same way, and the pause a column every replica reads before it acts.
import path from 'node:path';
import type { Config } from '../../config/config.js';
import type { AutomationItem, AutomationState, AutomationStore, ItemOutcome } from '../../newsletter/automations/automation-store.js';
import { readStateLines } from '../../newsletter/durable-file.js';
import { AUTOMATION_RUNS_FILE, createAutomationFiles } from '../files/automation-files.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';

interface StateRow {
  automation: string;
  added_at: Date;
  paused_at: Date | null;
  paused_by: string | null;
}

const stateOf = (row: StateRow): AutomationState => ({
  automation: row.automation,
  addedAt: row.added_at.toISOString(),
  ...(row.paused_at ? { paused: { at: row.paused_at.toISOString(), by: row.paused_by ?? '' } } : {}),
});

export function createPostgresAutomationStore(state: PostgresState): AutomationStore {
  return {
    async states() {
      const { rows } = await state.query<StateRow>('SELECT automation, added_at, paused_at, paused_by FROM newsletter_automation_states ORDER BY automation');
      return rows.map(stateOf);
    },
    register(automation, at, baseline) {
      return state.transaction(async (query) => {
        // A second replica registering at the same moment waits on the key, then finds the first one's row.
        const inserted = await query('INSERT INTO newsletter_automation_states (automation, added_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [automation, at]);
        if ((inserted.rowCount ?? 0) > 0 && baseline.length > 0) {
          await query(
            `INSERT INTO newsletter_automation_items (automation, item, outcome, at) SELECT $1, item, 'baseline', $2 FROM unnest($3::text[]) AS item ON CONFLICT DO NOTHING`,
            [automation, at, baseline],
          );
        }
        const { rows } = await query<StateRow>('SELECT automation, added_at, paused_at, paused_by FROM newsletter_automation_states WHERE automation = $1', [automation]);
        return stateOf(rows[0]!);
      });
    },
    async claim(entry) {
      const result = await state.query('INSERT INTO newsletter_automation_items (automation, item, outcome, campaign, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
        entry.automation,
        entry.item,
        entry.outcome,
        entry.campaign ?? null,
        entry.at,
      ]);
      return (result.rowCount ?? 0) > 0;
    },
    async claimedAmong(automation, items) {
      if (items.length === 0) return new Set();
      const { rows } = await state.query<{ item: string }>('SELECT item FROM newsletter_automation_items WHERE automation = $1 AND item = ANY($2::text[])', [automation, items]);
      return new Set(rows.map((row) => row.item));
    },
    async runs(automation) {
      const { rows } = await state.query<{ item: string; outcome: ItemOutcome; campaign: string | null; at: Date }>(
        `SELECT item, outcome, campaign, at FROM newsletter_automation_items WHERE automation = $1 AND outcome <> 'baseline' ORDER BY at, item`,
        [automation],
      );
      return rows.map((row): AutomationItem => ({ automation, item: row.item, outcome: row.outcome, ...(row.campaign ? { campaign: row.campaign } : {}), at: row.at.toISOString() }));
    },
    async claimRecipients(item, campaign, emails) {
      if (emails.length === 0) return [];
      // A replica giving the same addresses at the same moment waits on their keys; the second statement, after the
      // first committed, sees every row given by then.
      await state.query(
        'INSERT INTO newsletter_automation_recipients (item, email_key, campaign) SELECT $1, lower(email), $2 FROM unnest($3::text[]) AS email ON CONFLICT DO NOTHING',
        [item, campaign, emails],
      );
      const { rows } = await state.query<{ email: string }>(
        `SELECT email FROM unnest($3::text[]) WITH ORDINALITY AS given(email, n)
         WHERE EXISTS (SELECT 1 FROM newsletter_automation_recipients r WHERE r.item = $1 AND r.campaign = $2 AND r.email_key = lower(given.email)) ORDER BY n`,
        [item, campaign, emails],
      );
      return rows.map((row) => row.email);
    },
    async isCampaignPaused(campaign) {
      const { rows } = await state.query(
        'SELECT 1 FROM newsletter_automation_items i JOIN newsletter_automation_states s USING (automation) WHERE i.campaign = $1 AND s.paused_at IS NOT NULL LIMIT 1',
        [campaign],
      );
      return rows.length > 0;
    },
    async setPaused(automation, { paused, at, by }) {
      await state.query('UPDATE newsletter_automation_states SET paused_at = $2, paused_by = $3 WHERE automation = $1', [automation, paused ? at : null, paused ? by : null]);
    },
  };
}

/**
 * `postbox migrate --from-files`: the automations' runs file of `dataDir` into PostgreSQL. A registration keeps its
 * baseline, every item its claim, and the pause its last state; what is there already is skipped.
 */
export async function importAutomationRunsFromFiles(dataDir: string, _config: Config, state: PostgresState): Promise<ImportCount> {
  const counts: ImportCount = { copied: 0, skipped: 0 };
  const add = (result: { rowCount: number | null }) => ((result.rowCount ?? 0) > 0 ? (counts.copied += 1) : (counts.skipped += 1));
  const { records } = await readStateLines<Record<string, unknown>>(path.join(dataDir, AUTOMATION_RUNS_FILE), 'automation runs');
  for (const line of records) {
    if (typeof line === 'object' && line !== null && typeof line.item === 'string' && typeof line.campaign === 'string' && Array.isArray(line.recipients)) {
      const emails = line.recipients.filter((email): email is string => typeof email === 'string');
      add(await state.query('INSERT INTO newsletter_automation_recipients (item, email_key, campaign) SELECT $1, lower(email), $2 FROM unnest($3::text[]) AS email ON CONFLICT DO NOTHING', [line.item, line.campaign, emails]));
      continue;
    }
    if (typeof line !== 'object' || line === null || typeof line.automation !== 'string') continue;
    if (typeof line.added_at === 'string') {
      add(await state.query('INSERT INTO newsletter_automation_states (automation, added_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [line.automation, line.added_at]));
      const baseline = Array.isArray(line.baseline) ? line.baseline.filter((item): item is string => typeof item === 'string') : [];
      await state.query(`INSERT INTO newsletter_automation_items (automation, item, outcome, at) SELECT $1, item, 'baseline', $2 FROM unnest($3::text[]) AS item ON CONFLICT DO NOTHING`, [
        line.automation,
        line.added_at,
        baseline,
      ]);
    } else if (typeof line.item === 'string' && typeof line.outcome === 'string' && typeof line.at === 'string') {
      add(
        await state.query('INSERT INTO newsletter_automation_items (automation, item, outcome, campaign, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
          line.automation,
          line.item,
          line.outcome,
          typeof line.campaign === 'string' ? line.campaign : null,
          line.at,
        ]),
      );
    }
  }
  // The pause as the file leaves it: the last pause or resume of each automation.
  for (const entry of await createAutomationFiles(dataDir, async () => undefined).states()) {
    await state.query('UPDATE newsletter_automation_states SET paused_at = $2, paused_by = $3 WHERE automation = $1', [entry.automation, entry.paused?.at ?? null, entry.paused?.by ?? null]);
  }
  return counts;
}
