// The mail queue.
// Part of migration version 1 (src/storage/postgres/migrations.ts).
export const QUEUE_TABLES = `
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
