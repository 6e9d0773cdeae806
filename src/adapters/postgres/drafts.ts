// Unsaved editor drafts in the admin_drafts table (src/admin/drafts/draft-store.ts): one row per person and key,
// shared by every replica, so a draft typed through one is offered through any other.
import { unsavedDraftOf, type DraftStore } from '../../admin/drafts/draft-store.js';
import type { PostgresState } from './state.js';

interface DraftRow {
  fields: unknown;
  body: string;
  saved_at: string;
}

/** Drafts in admin_drafts; queries reject with UnavailableError while the database is out of reach. */
export function createPostgresDraftStore(state: PostgresState): DraftStore {
  return {
    async put(user, key, draft) {
      await state.query(
        `INSERT INTO admin_drafts (user_name, draft_key, fields, body, saved_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_name, draft_key) DO UPDATE SET fields = EXCLUDED.fields, body = EXCLUDED.body, saved_at = EXCLUDED.saved_at`,
        [user, key, JSON.stringify(draft.fields), draft.body, draft.savedAt],
      );
    },
    async get(user, key) {
      const { rows } = await state.query<DraftRow>('SELECT fields, body, saved_at FROM admin_drafts WHERE user_name = $1 AND draft_key = $2', [user, key]);
      const row = rows[0];
      return row ? unsavedDraftOf({ fields: row.fields, body: row.body, savedAt: Number(row.saved_at) }) : undefined;
    },
    async remove(user, key) {
      await state.query('DELETE FROM admin_drafts WHERE user_name = $1 AND draft_key = $2', [user, key]);
    },
  };
}
