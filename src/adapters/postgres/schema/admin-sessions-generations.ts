// /admin sessions end when their user's generation moves on, and remember when the person last proved who they
// are (docs/admin.md "Sessions"). Part of migration version 2 (src/adapters/postgres/migrations.ts).
export const SESSION_GENERATIONS = `
-- The user's generation at sign-in (sessions of an older one are over); rows from before start in the first.
ALTER TABLE admin_sessions ADD COLUMN generation bigint NOT NULL DEFAULT 0;
-- When the password (or a passkey) was last given: sign-in, or asked again before a sensitive change.
ALTER TABLE admin_sessions ADD COLUMN auth_at bigint;
UPDATE admin_sessions SET auth_at = created_at;
ALTER TABLE admin_sessions ALTER COLUMN auth_at SET NOT NULL;
`;
