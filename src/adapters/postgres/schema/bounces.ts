// Bounces and the suppression list (docs/bounces.md "Suppression"): what each sent mail's tag stands for, the
// suppressed addresses, the soft bounces still counting and each campaign's bounces.
// Migration version 6 (src/adapters/postgres/migrations.ts).
export const BOUNCE_TABLES = `
-- data_dir/bounces/sent/<day>.jsonl: one row per sent mail, found by the id in its tag; rows older than 60 days
-- are deleted. "recipients" lower-cased; "campaign" and "position" for a campaign's mail.
CREATE TABLE bounce_sent_mails (
  id text PRIMARY KEY,
  recipients text[] NOT NULL,
  owner boolean NOT NULL,
  kind text NOT NULL,
  form text NOT NULL,
  campaign text,
  position integer,
  sent_at timestamptz NOT NULL
);
CREATE INDEX bounce_sent_mails_by_time ON bounce_sent_mails (sent_at);

-- data_dir/bounces/suppressions.json "suppressed": one row per address (lower-cased), the first report that put
-- it there.
CREATE TABLE suppressions (
  address text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('hard', 'soft', 'complaint')),
  at timestamptz NOT NULL,
  reason text NOT NULL,
  source text NOT NULL
);
CREATE INDEX suppressions_by_time ON suppressions (at);

-- "soft": one row per soft bounce still counting; counted under a transaction-scoped advisory lock of the address,
-- so reports arriving at once on several replicas are counted one after the other.
CREATE TABLE bounce_soft (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX bounce_soft_by_address ON bounce_soft (address, at);

-- "campaigns": a campaign's recipient that bounced hard or complained, once per recipient and kind.
CREATE TABLE bounce_campaign_tallies (
  campaign text NOT NULL,
  position integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('hard', 'complaint')),
  at timestamptz NOT NULL,
  PRIMARY KEY (campaign, kind, position)
);
`;
