// Campaigns: the request, body, recipients and journal of each, and which replica runs it.
// Part of migration version 1 (src/adapters/postgres/migrations.ts).
export const CAMPAIGN_TABLES = `
-- data_dir/campaigns/<id>: campaign.json as "request", body.json as "body"; "runner" and "lease_until" say which
-- replica sends it, until when (renewed while it runs; another replica takes over once it lapsed).
CREATE TABLE campaigns (
  id text PRIMARY KEY,
  form text NOT NULL,
  slug text NOT NULL,
  lang text NOT NULL,
  request jsonb NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  runner text,
  lease_until timestamptz
);

-- recipients.txt: the confirmed addresses when the campaign was created, in the order they are sent to.
CREATE TABLE campaign_recipients (
  campaign text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  position integer NOT NULL,
  email text NOT NULL,
  PRIMARY KEY (campaign, position)
);

-- journal.jsonl: one row per line, in the order they were written.
CREATE TABLE campaign_journal (
  id bigserial PRIMARY KEY,
  campaign text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
  line jsonb NOT NULL
);
CREATE INDEX campaign_journal_by_campaign ON campaign_journal (campaign, id);

-- claims/<key>: the campaign of one form, post and language that follows a given set of earlier ones; the
-- primary key lets one of two sends started at the same moment make it.
CREATE TABLE campaign_claims (
  key text PRIMARY KEY,
  claimed_at timestamptz NOT NULL DEFAULT now()
);
`;
