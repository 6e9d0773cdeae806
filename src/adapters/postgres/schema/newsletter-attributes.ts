// Migration version 14: the subscriber attributes and automations (docs/newsletter.md "Subscriber attributes"): the language of a
// pending signup, the source (form path) and language on its subscription, and the tags of a subscription (keyed by
// its `subscribed` event, so that a later subscription starts without them); and the ledger of the automations
// mailed, one row per (automation, address), whose key makes each mailed once whatever the replicas.
export const SUBSCRIBER_ATTRIBUTE_COLUMNS = `
ALTER TABLE pending_signups ADD COLUMN lang text;
ALTER TABLE subscriber_events ADD COLUMN source text, ADD COLUMN lang text;
CREATE TABLE subscriber_tags (
  subscription bigint PRIMARY KEY REFERENCES subscriber_events (id) ON DELETE CASCADE,
  tags text[] NOT NULL
);
CREATE TABLE newsletter_automations_mailed (
  automation text NOT NULL,
  email_key text NOT NULL,
  email text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (automation, email_key)
);
`;
