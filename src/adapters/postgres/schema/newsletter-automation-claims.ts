// Migration version 19: the automations' claims (docs/newsletter.md "Exactly once, across crashes and replicas").
// A pair of the welcome ledger is claimed (`settled` false, `claimed_at` its claim) before its mail is queued and
// settled once the queue took it, so that a claim a killed process left unsettled is queued again by a recovery;
// rows written before are settled. And one row per (post item, address) of the on_publish automations, whose key
// gives each address to one campaign alone, whatever the automations and replicas planning that post at once.
export const NEWSLETTER_AUTOMATION_CLAIMS = `
ALTER TABLE newsletter_automations_mailed ADD COLUMN claimed_at timestamptz, ADD COLUMN settled boolean NOT NULL DEFAULT true, ADD COLUMN lang text;
UPDATE newsletter_automations_mailed SET claimed_at = at;
ALTER TABLE newsletter_automations_mailed ALTER COLUMN claimed_at SET NOT NULL;
CREATE INDEX newsletter_automations_unsettled ON newsletter_automations_mailed (claimed_at) WHERE NOT settled;
CREATE TABLE newsletter_automation_recipients (
  item text NOT NULL,
  email_key text NOT NULL,
  campaign text NOT NULL,
  PRIMARY KEY (item, email_key)
);
`;
