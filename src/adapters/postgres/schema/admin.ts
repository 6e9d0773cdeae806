// /admin: sessions and sign-in throttling.
// Part of migration version 1 (src/adapters/postgres/migrations.ts).
export const ADMIN_TABLES = `
-- data_dir/admin-sessions.json: one row per session; only the SHA-256 of the cookie's id is kept. Times are the
-- replica's clock, in milliseconds since the epoch, as in the file.
CREATE TABLE admin_sessions (
  id_hash text PRIMARY KEY,
  user_name text NOT NULL,
  created_at bigint NOT NULL,
  last_seen_at bigint NOT NULL
);
CREATE INDEX admin_sessions_by_last_seen ON admin_sessions (last_seen_at);

-- Failed sign-ins of the last 15 minutes, per key ("ip:<address>" or "name:<name>"), counted by every replica.
CREATE TABLE sign_in_failures (
  key text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX sign_in_failures_by_key ON sign_in_failures (key, at);
CREATE INDEX sign_in_failures_by_time ON sign_in_failures (at);
`;
