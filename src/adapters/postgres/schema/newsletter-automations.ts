// Migration version 17: the on_publish and digest automations (docs/newsletter.md "Automations"): one row per
// automation (when it was added, whether it is paused: every replica reads it before it acts), and one row per item
// it took (a post in one language, a digest's period), whose key lets one replica alone take it; `campaign` names
// the campaign that mails it, chosen before the row is written so that a replica killed before creating it leaves
// another the same campaign to create.
export const NEWSLETTER_AUTOMATION_TABLES = `
CREATE TABLE newsletter_automation_states (
  automation text PRIMARY KEY,
  added_at timestamptz NOT NULL,
  paused_at timestamptz,
  paused_by text
);
CREATE TABLE newsletter_automation_items (
  automation text NOT NULL,
  item text NOT NULL,
  outcome text NOT NULL,
  campaign text,
  at timestamptz NOT NULL,
  PRIMARY KEY (automation, item)
);
`;
