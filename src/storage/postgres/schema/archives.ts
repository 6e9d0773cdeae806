// The form archives as rows.
// Part of migration version 1 (src/storage/postgres/migrations.ts).
export const ARCHIVE_TABLES = `
-- data_dir/<archive>: one row per accepted submission; "archive" is the form's configured archive name (two forms
-- may share one), "data" the archive line exactly as the files backend writes it.
CREATE TABLE archives (
  id bigserial PRIMARY KEY,
  archive text NOT NULL,
  form text NOT NULL,
  received_at timestamptz NOT NULL,
  data jsonb NOT NULL
);
CREATE INDEX archives_by_archive ON archives (archive, id);
`;
