// A configuration user's password hash as of the last start, so that a new one ends their sessions (docs/admin.md
// "Sessions"). Part of migration version 8 (src/adapters/postgres/migrations.ts).
export const ADMIN_CONFIG_HASH_TAGS = `
-- data_dir/admin-users.json "configHashTag": the first 64 bits of the SHA-256 of the password_hash [admin] users
-- gave at the last start, hex; NULL for a user of the store, or before the first start that recorded it.
ALTER TABLE admin_users ADD COLUMN config_hash_tag text;
`;
