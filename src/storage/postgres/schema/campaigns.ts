// Campaigns: the request, body, recipients and journal of each, and which replica runs it.
// Part of migration version 1 (src/storage/postgres/migrations.ts).
export const CAMPAIGN_TABLES = `
-- (tables follow)
`;
