// /admin: sessions and sign-in throttling.
// Part of migration version 1 (src/storage/postgres/migrations.ts).
export const ADMIN_TABLES = `
-- (tables follow)
`;
