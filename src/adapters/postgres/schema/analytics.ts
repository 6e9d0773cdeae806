// The analytics' daily rollups (docs/analytics.md "Daily rollups"): like data_dir/analytics/<day>.json. Migration
// version 15 (src/adapters/postgres/migrations.ts).
export const ANALYTICS_TABLES = `
-- One row per day, kind and name: views by page path, views by referring host, views by width class, and accepted
-- submissions by form path (name) and page path (page).
CREATE TABLE analytics_counts (
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('view', 'referrer', 'width', 'conversion')),
  name text NOT NULL,
  page text NOT NULL DEFAULT '',
  count bigint NOT NULL,
  PRIMARY KEY (day, kind, name, page)
);

-- The distinct visitors of each day; every replica writes the count of the shared set, the largest is kept.
CREATE TABLE analytics_visitors (
  day date PRIMARY KEY,
  visitors bigint NOT NULL
);
`;
