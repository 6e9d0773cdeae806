// Campaigns in PostgreSQL (docs/newsletter.md "With PostgreSQL and several replicas"), shared by every replica: a
// campaign is written whole in one transaction, its journal is one row per line, a claim is a row whose primary key
// only one send can insert, and a lease says which replica sends it: a replica runs a campaign only while its lease
// holds (renewed as it runs), and another takes over once a lease lapsed, going on after the last journaled recipient.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { claimKeyOf, isCampaignRequest, type CampaignRequest, type JournalLine } from '../../newsletter/campaigns/campaign.js';
import type { CampaignBody, CampaignStore } from '../../newsletter/campaigns/campaign-store.js';
import type { PostgresState } from './state.js';

/** How long a lease holds without being renewed: the longest a campaign waits after its replica died. */
export const LEASE_SECONDS = 30;

export interface PostgresCampaignOptions {
  /** Who this process is in `campaigns.runner`; the host, process id and a random part unless given. */
  runner?: string;
  leaseSeconds?: number;
}

export function createPostgresCampaignStore(state: PostgresState, options: PostgresCampaignOptions = {}): CampaignStore {
  const runner = options.runner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
  const requestOf = (id: string, value: unknown): CampaignRequest => {
    if (!isCampaignRequest(value, id)) throw new Error(`campaign ${id}: its request lacks a field`);
    return value;
  };
  return {
    async create(request, body, recipients) {
      await state.transaction(async (query) => {
        await query('INSERT INTO campaigns (id, form, slug, lang, request, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          request.id,
          request.form,
          request.slug,
          request.lang,
          JSON.stringify(request),
          JSON.stringify(body),
          request.created_at,
        ]);
        await insertRecipients(query, request.id, recipients);
      });
    },
    async list() {
      const { rows } = await state.query<{ id: string; request: unknown }>('SELECT id, request FROM campaigns ORDER BY id');
      return rows.flatMap((row) => (isCampaignRequest(row.request, row.id) ? [row.request] : []));
    },
    async read(id) {
      const { rows } = await state.query<{ request: unknown }>('SELECT request FROM campaigns WHERE id = $1', [id]);
      return rows[0] && requestOf(id, rows[0].request);
    },
    async readBody(id) {
      const { rows } = await state.query<{ body: CampaignBody }>('SELECT body FROM campaigns WHERE id = $1', [id]);
      if (!rows[0]) throw new Error(`campaign ${id}: not found`);
      return rows[0].body;
    },
    async readRecipients(id) {
      const { rows } = await state.query<{ email: string }>('SELECT email FROM campaign_recipients WHERE campaign = $1 ORDER BY position', [id]);
      return rows.map((row) => row.email);
    },
    async readJournal(id) {
      const { rows } = await state.query<{ line: JournalLine }>('SELECT line FROM campaign_journal WHERE campaign = $1 ORDER BY id', [id]);
      return rows.map((row) => row.line);
    },
    async append(id, line) {
      await state.query('INSERT INTO campaign_journal (campaign, line) VALUES ($1, $2)', [id, JSON.stringify(line)]);
    },
    async claim(form, slug, lang, after) {
      const result = await state.query('INSERT INTO campaign_claims (key) VALUES ($1) ON CONFLICT (key) DO NOTHING', [claimKeyOf(form, slug, lang, after)]);
      return result.rowCount === 1;
    },
    async lease(id) {
      // The database's clock decides, so replicas with skewed clocks agree on when a lease lapsed.
      const result = await state.query(
        `UPDATE campaigns SET runner = $2, lease_until = now() + make_interval(secs => $3)
         WHERE id = $1 AND (runner IS NULL OR runner = $2 OR lease_until < now())`,
        [id, runner, leaseSeconds],
      );
      return result.rowCount === 1;
    },
    async release(id) {
      await state.query('UPDATE campaigns SET runner = NULL, lease_until = NULL WHERE id = $1 AND runner = $2', [id, runner]);
    },
  };
}

/** The recipients of campaign `id`, in one statement however many there are. */
export async function insertRecipients(query: PostgresState['query'], id: string, recipients: readonly string[]): Promise<void> {
  await query('INSERT INTO campaign_recipients (campaign, position, email) SELECT $1, position - 1, email FROM unnest($2::text[]) WITH ORDINALITY AS list (email, position)', [
    id,
    recipients,
  ]);
}
