// The spam quarantine (docs/spam.md "Quarantine"): the submissions taken for spam, with their reasons, until a
// person says "Not spam" or they are older than the form's spam_keep_days; and the proof-of-work challenges used,
// so that a solution counts once across every replica. Like the files of data_dir/spam/.
// Migration version 5 (src/adapters/postgres/migrations.ts).
export const SPAM_TABLES = `
-- One row per quarantined submission. The id grows with every row, so it orders them by arrival. A "Not spam"
-- claims its row (claimed_at) while the submission is delivered, then marks it released; a released row leaves the
-- Spam view and stays counted on the dashboard until it is pruned.
CREATE TABLE spam_quarantine (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  form text NOT NULL,
  received_at timestamptz NOT NULL,
  reasons text[] NOT NULL,
  submission jsonb NOT NULL,
  claimed_at timestamptz,
  released_at timestamptz
);
CREATE INDEX spam_quarantine_waiting ON spam_quarantine (form, id) WHERE released_at IS NULL;
CREATE INDEX spam_quarantine_by_time ON spam_quarantine (form, received_at);
CREATE INDEX spam_quarantine_by_day ON spam_quarantine (received_at);

-- One row per proof-of-work challenge used (the challenge's nonce), kept at least until it expires: the primary
-- key lets exactly one of two replicas that see one solution at once record it.
CREATE TABLE spam_challenges (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spam_challenges_by_expiry ON spam_challenges (expires_at);
`;
