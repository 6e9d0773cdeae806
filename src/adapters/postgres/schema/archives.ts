// The form archives as rows.
// Part of migration version 1 (src/adapters/postgres/migrations.ts).
export const ARCHIVE_TABLES = `
-- data_dir/<archive>: one row per accepted submission; "archive" is the form's configured archive name (two forms
-- may share one), "data" the archive line exactly as the files backend writes it. "source" names the archive line
-- a row was copied from by \`postbox migrate --from-files\` (NULL for rows the service wrote), so a second copy skips it.
CREATE TABLE archives (
  id bigserial PRIMARY KEY,
  archive text NOT NULL,
  form text NOT NULL,
  received_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  source text UNIQUE
);
CREATE INDEX archives_by_archive ON archives (archive, id);
-- /admin's inbox (a form's rows newest first) and dashboard (a form's rows per day).
CREATE INDEX archives_by_form ON archives (archive, form, id);
CREATE INDEX archives_by_form_day ON archives (archive, form, received_at);
`;
