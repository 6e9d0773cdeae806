// The browsers remembered for each /admin user (docs/admin.md "Signing in"). Part of migration version 7
// (src/adapters/postgres/migrations.ts).
export const ADMIN_DEVICE_COLUMNS = `
-- data_dir/admin-users.json "devices": a list of {hash, generation, createdAt, lastUsedAt}, the SHA-256 of each
-- browser's device token (never the token); NULL for none.
ALTER TABLE admin_users ADD COLUMN devices jsonb;
`;
