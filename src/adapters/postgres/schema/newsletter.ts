// The newsletter: pending signups, the subscriber log and the unsubscribe secret.
// Part of migration version 1 (src/adapters/postgres/migrations.ts).
export const NEWSLETTER_TABLES = `
-- data_dir/newsletter-pending.jsonl: a signup waiting for its confirmation link; the row is deleted when it is
-- redeemed (one DELETE ... RETURNING, so a token redeems once across replicas) or removed.
CREATE TABLE pending_signups (
  hash text PRIMARY KEY,
  form text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX pending_signups_by_address ON pending_signups (form, lower(email));
CREATE INDEX pending_signups_by_expiry ON pending_signups (expires_at);

-- data_dir/<subscribers>: the subscriber log, one event per row in the order they happened; "log" is the form's
-- configured subscriber log name (two newsletters may share one). The current list of a form is the last event
-- of each (form, lower(email)). "at" is subscribed_at or the unsubscription's time (null for an old line
-- without one). "import_key" names the file line a row was copied from (migrate --from-files), else null.
CREATE TABLE subscriber_events (
  id bigserial PRIMARY KEY,
  log text NOT NULL,
  form text NOT NULL,
  event text NOT NULL CHECK (event IN ('subscribed', 'unsubscribed')),
  email text NOT NULL,
  at timestamptz,
  signed_up_at timestamptz,
  import_key text UNIQUE
);
CREATE INDEX subscriber_events_by_address ON subscriber_events (form, lower(email), id);

-- data_dir/newsletter-secret: the HMAC key of unsubscribe links, one row shared by every replica. The first
-- replica inserts it (ON CONFLICT DO NOTHING), every one reads it back.
CREATE TABLE newsletter_secret (
  id integer PRIMARY KEY CHECK (id = 1),
  secret bytea NOT NULL CHECK (length(secret) = 32)
);
`;
