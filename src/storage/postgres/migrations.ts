// The versioned schema of the PostgreSQL state (contract section 8). A migration, once released, is never edited:
// a change is a new version. src/storage/postgres/migrate.ts applies the missing ones at start.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Version 1: the records of data_dir as tables. Names follow the files they replace (docs/delivery.md, docs/newsletter.md). */
const initialTables = `
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
-- configured subscriber log name (two newsletters may share one).
CREATE TABLE subscriber_events (
  id bigserial PRIMARY KEY,
  log text NOT NULL,
  form text NOT NULL,
  event text NOT NULL CHECK (event IN ('subscribed', 'unsubscribed')),
  email text NOT NULL,
  at timestamptz NOT NULL,
  signed_up_at timestamptz
);
CREATE INDEX subscriber_events_by_address ON subscriber_events (form, lower(email), id);

-- data_dir/queue: a message to send; taken by one replica with FOR UPDATE SKIP LOCKED (not used yet).
CREATE TABLE queue_messages (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  message jsonb NOT NULL,
  lane text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  failed_at timestamptz
);
CREATE INDEX queue_messages_due ON queue_messages (next_attempt_at) WHERE failed_at IS NULL;
`;

/** Every migration, oldest first; versions are consecutive from 1. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([{ version: 1, name: 'initial tables', sql: initialTables }]);
