// Migration version 14: the subscriber attributes (docs/newsletter.md "Subscriber attributes"): the language of a
// pending signup, the source (form path) and language on its subscription, and the tags of a subscription (keyed by
// its `subscribed` event, so that a later subscription starts without them).
export const SUBSCRIBER_ATTRIBUTE_COLUMNS = `
ALTER TABLE pending_signups ADD COLUMN lang text;
ALTER TABLE subscriber_events ADD COLUMN source text, ADD COLUMN lang text;
CREATE TABLE subscriber_tags (
  subscription bigint PRIMARY KEY REFERENCES subscriber_events (id) ON DELETE CASCADE,
  tags text[] NOT NULL
);
`;
