// The mail queue.
// Part of migration version 1 (src/adapters/postgres/migrations.ts).
export const QUEUE_TABLES = `
-- data_dir/queue: a message to send. A replica claims due rows with FOR UPDATE SKIP LOCKED and leases them
-- (leased_by, lease_until) while it sends; a row leaves when sent, or stays with failed_at once given up.
-- "seq" orders the messages of a lane (a campaign's), which go one at a time across replicas.
CREATE TABLE queue_messages (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL,
  message jsonb NOT NULL,
  lane text,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  lease_until timestamptz,
  leased_by text,
  failed_at timestamptz
);
-- A claim's order (new messages first, then retries by time) read from an index, not sorted at every claim.
CREATE INDEX queue_messages_claim ON queue_messages ((attempts > 0), next_attempt_at, seq) WHERE failed_at IS NULL AND lane IS NULL;
CREATE INDEX queue_messages_lane ON queue_messages (lane, seq) WHERE failed_at IS NULL AND lane IS NOT NULL;
`;
