// The webmentions queued for the blog's posts in PostgreSQL (docs/comments.md "Sending"), shared by every replica:
// the table blog_webmentions_sent of schema/comments.ts (migration 12), one row per (version, change, target). A
// take is an INSERT ... ON CONFLICT DO NOTHING RETURNING: of replicas taking the same target, one gets the row.
import type { SentLedger } from '../../comments/webmention-ledger.js';
import type { PostgresState } from './state.js';

export function createPostgresWebmentionLedger(state: PostgresState): SentLedger {
  return {
    take: (version, change, targets) =>
      state.transaction(async (query) => {
        await query('DELETE FROM blog_webmentions_sent WHERE version = $1 AND change <> $2', [version, change]);
        if (targets.length === 0) return [];
        const { rows } = await query<{ target: string }>(
          'INSERT INTO blog_webmentions_sent (version, change, target) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING RETURNING target',
          [version, change, [...new Set(targets)]],
        );
        return rows.map((row) => row.target);
      }),
    async giveBack(version, change, targets) {
      await state.query('DELETE FROM blog_webmentions_sent WHERE version = $1 AND change = $2 AND target = ANY($3::text[])', [version, change, [...targets]]);
    },
  };
}
