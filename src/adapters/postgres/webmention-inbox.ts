// The webmentions received in PostgreSQL (docs/comments.md "Receiving"), shared by every replica: the table
// blog_webmentions_received of schema/comments.ts (migration 12). A claim is one UPDATE over rows picked with
// FOR UPDATE SKIP LOCKED that sets a lease, so two replicas never take the same webmention, and one taken by a
// replica that died is taken again once its lease ran out.
import { WEBMENTION_ID, WEBMENTION_LEASE_MS, type InboxWebmention, type WebmentionInbox } from '../../comments/webmention-inbox.js';
import type { PostgresState } from './state.js';

interface Row {
  id: string;
  source: string;
  target: string;
  slug: string;
  lang: string;
  received_at: Date;
}

const mentionOf = (row: Row): InboxWebmention => ({ id: row.id, source: row.source, target: row.target, slug: row.slug, lang: row.lang, receivedAt: row.received_at.getTime() });

export function createPostgresWebmentionInbox(state: PostgresState): WebmentionInbox {
  return {
    async receive(mention) {
      await state.query(
        `INSERT INTO blog_webmentions_received (id, source, target, slug, lang, received_at, status) VALUES ($1, $2, $3, $4, $5, $6, 'pending')`,
        [mention.id, mention.source, mention.target, mention.slug, mention.lang, new Date(mention.receivedAt)],
      );
    },
    async claim(limit, now) {
      const { rows } = await state.query<Row>(
        `UPDATE blog_webmentions_received SET claimed_until = $2 WHERE id IN (
           SELECT id FROM blog_webmentions_received
            WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < $1)
            ORDER BY received_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, source, target, slug, lang, received_at`,
        [new Date(now), new Date(now + WEBMENTION_LEASE_MS), limit],
      );
      return rows.map(mentionOf).sort((a, b) => a.receivedAt - b.receivedAt);
    },
    async settle(id, outcome) {
      await state.query(`UPDATE blog_webmentions_received SET status = $2, reason = $3, claimed_until = NULL WHERE id = $1`, [
        id,
        outcome.status,
        outcome.status === 'refused' ? outcome.reason : null,
      ]);
    },
    async status(id) {
      if (!WEBMENTION_ID.test(id)) return undefined;
      const { rows } = await state.query<{ status: 'pending' | 'accepted' | 'refused'; reason: string | null }>('SELECT status, reason FROM blog_webmentions_received WHERE id = $1', [id]);
      const row = rows[0];
      if (!row) return undefined;
      return row.status === 'refused' ? { status: 'refused', reason: row.reason ?? '' } : { status: row.status };
    },
    async forget(before) {
      await state.query(`DELETE FROM blog_webmentions_received WHERE status <> 'pending' AND received_at < $1`, [new Date(before)]);
    },
  };
}
