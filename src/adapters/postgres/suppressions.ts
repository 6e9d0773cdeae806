// The suppression list in PostgreSQL (docs/bounces.md "Suppression"), shared by every replica: tables of
// schema/bounces.ts. A soft bounce is counted in one transaction under an advisory lock of its address, so that
// reports arriving at once on several replicas are counted one after the other and the one that reaches the limit
// is the one that suppresses; a suppression is a row whose primary key only one insert can take.
import type { BounceSource } from '../../bounces/bounce-report.js';
import type { BounceStore, SentMail, Suppression, SuppressionKind } from '../../bounces/bounce-store.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import type { MailKind } from '../../queue/outgoing.js';
import type { PostgresState, TransactionQuery } from './state.js';

/** The first key of the soft-bounce advisory locks (two-key form); the address's hash is the second. */
const SOFT_LOCK_CLASS = 0x626f756e;

interface SentRow {
  id: string;
  recipients: string[];
  owner: boolean;
  kind: MailKind;
  form: string;
  campaign: string | null;
  position: number | null;
  sent_at: Date;
}

interface SuppressionRow {
  address: string;
  kind: SuppressionKind;
  at: Date;
  reason: string;
  source: BounceSource;
}

const INSERT_SUPPRESSION = 'INSERT INTO suppressions (address, kind, at, reason, source) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (address) DO NOTHING';

function suppressionValues(entry: Suppression): unknown[] {
  return [comparableEmailAddress(entry.address), entry.kind, new Date(entry.at), entry.reason, entry.source];
}

export function createPostgresSuppressions(state: PostgresState): BounceStore {
  return {
    async recordSent(mail) {
      await state.query(
        'INSERT INTO bounce_sent_mails (id, recipients, owner, kind, form, campaign, position, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING',
        sentValues(mail),
      );
    },
    async findSent(id) {
      const { rows } = await state.query<SentRow>('SELECT id, recipients, owner, kind, form, campaign, position, sent_at FROM bounce_sent_mails WHERE id = $1', [id]);
      const row = rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        to: row.recipients,
        owner: row.owner,
        kind: row.kind,
        form: row.form,
        ...(row.campaign !== null && row.position !== null ? { campaign: { campaign: row.campaign, index: row.position } } : {}),
        at: row.sent_at.getTime(),
      };
    },
    async purgeSent(before) {
      const cutoff = new Date(before);
      const { rowCount } = await state.query('DELETE FROM bounce_sent_mails WHERE sent_at < $1', [cutoff]);
      await state.query('DELETE FROM bounce_campaign_tallies WHERE at < $1', [cutoff]);
      return rowCount ?? 0;
    },
    async isSuppressed(address) {
      const { rowCount } = await state.query('SELECT 1 FROM suppressions WHERE address = $1', [comparableEmailAddress(address)]);
      return (rowCount ?? 0) > 0;
    },
    async list() {
      const { rows } = await state.query<SuppressionRow>('SELECT address, kind, at, reason, source FROM suppressions ORDER BY at DESC, address');
      return rows.map((row) => ({ address: row.address, kind: row.kind, at: row.at.getTime(), reason: row.reason, source: row.source }));
    },
    async suppress(entry) {
      return (await state.query(INSERT_SUPPRESSION, suppressionValues(entry))).rowCount === 1;
    },
    countSoft(entry, policy) {
      const address = comparableEmailAddress(entry.address);
      const since = new Date(entry.at - policy.windowMs);
      return state.transaction(async (query) => {
        await query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SOFT_LOCK_CLASS, address]);
        // Bounces older than the window can never count again.
        await query('DELETE FROM bounce_soft WHERE address = $1 AND at <= $2', [address, since]);
        await query('INSERT INTO bounce_soft (address, at) VALUES ($1, $2)', [address, new Date(entry.at)]);
        const { rows } = await query<{ count: string }>('SELECT count(*) AS count FROM bounce_soft WHERE address = $1 AND at > $2', [address, since]);
        if (Number(rows[0]!.count) < policy.limit) return 'counted';
        return (await query(INSERT_SUPPRESSION, suppressionValues(entry))).rowCount === 1 ? 'suppressed' : 'counted';
      });
    },
    remove(address) {
      const wanted = comparableEmailAddress(address);
      return state.transaction(async (query) => {
        const { rowCount } = await query('DELETE FROM suppressions WHERE address = $1', [wanted]);
        await query('DELETE FROM bounce_soft WHERE address = $1', [wanted]);
        return rowCount === 1;
      });
    },
    async tallyCampaign(campaign, index, kind, at) {
      await state.query('INSERT INTO bounce_campaign_tallies (campaign, position, kind, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [campaign, index, kind, new Date(at)]);
    },
    async campaignTally(campaign) {
      const { rows } = await state.query<{ kind: string; count: string }>('SELECT kind, count(*) AS count FROM bounce_campaign_tallies WHERE campaign = $1 GROUP BY kind', [campaign]);
      const countOf = (kind: string) => Number(rows.find((row) => row.kind === kind)?.count ?? 0);
      return { hard: countOf('hard'), complaint: countOf('complaint') };
    },
  };
}

function sentValues(mail: SentMail): unknown[] {
  return [mail.id, mail.to, mail.owner, mail.kind, mail.form, mail.campaign?.campaign ?? null, mail.campaign?.index ?? null, new Date(mail.at)];
}

/** Copies `entries`, soft bounces and sent mails (migrate --from-files) in one transaction; what was new. */
export async function insertSuppressionRecords(
  query: TransactionQuery,
  records: { suppressed: readonly Suppression[]; soft: ReadonlyArray<{ address: string; at: number }>; sent: readonly SentMail[]; tallies: ReadonlyArray<{ campaign: string; index: number; kind: 'hard' | 'complaint'; at: number }> },
): Promise<{ copied: number; skipped: number }> {
  let copied = 0;
  for (const entry of records.suppressed) if ((await query(INSERT_SUPPRESSION, suppressionValues(entry))).rowCount === 1) copied += 1;
  for (const soft of records.soft) {
    await query('INSERT INTO bounce_soft (address, at) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM bounce_soft WHERE address = $1 AND at = $2)', [soft.address, new Date(soft.at)]);
  }
  for (const mail of records.sent) {
    await query(
      'INSERT INTO bounce_sent_mails (id, recipients, owner, kind, form, campaign, position, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING',
      sentValues(mail),
    );
  }
  for (const tally of records.tallies) {
    await query('INSERT INTO bounce_campaign_tallies (campaign, position, kind, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [tally.campaign, tally.index, tally.kind, new Date(tally.at)]);
  }
  return { copied, skipped: records.suppressed.length - copied };
}
