// /admin users beyond the config's [admin] users, their invitations and the audit log (docs/admin.md "Users and
// roles"). Part of migration version 3 (src/adapters/postgres/migrations.ts).
export const ADMIN_ACCOUNT_TABLES = `
-- data_dir/admin-users.json "users": one row per stored user. A user of the config has a row only for what the
-- config cannot hold (generation, second factors): role and password_hash are then NULL. Times in milliseconds
-- since the epoch, as in the file.
CREATE TABLE admin_users (
  name text PRIMARY KEY,
  role text CHECK (role IN ('owner', 'editor', 'author')),
  email text,
  password_hash text,
  generation bigint NOT NULL DEFAULT 0,
  totp jsonb,
  passkeys jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at bigint NOT NULL
);

-- data_dir/admin-users.json "invitations": only the SHA-256 of an invitation's token is kept.
CREATE TABLE admin_invitations (
  token_hash text PRIMARY KEY,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'editor', 'author')),
  email text,
  created_by text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX admin_invitations_by_expiry ON admin_invitations (expires_at);

-- data_dir/admin-audit.jsonl: one row per event, in the order they were written.
CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  at bigint NOT NULL,
  user_name text,
  event text NOT NULL,
  subject text,
  network text
);
`;
