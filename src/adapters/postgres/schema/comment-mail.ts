// Reply subscribers and comment mail tokens (docs/comments.md "Reply notifications"): like data_dir/comments/mail.json;
// and the column that names the /admin user who wrote a reply of the site (docs/comments.md "Moderating in /admin").
// Migration version 10 (src/adapters/postgres/migrations.ts).
export const COMMENT_MAIL_TABLES = `
-- One row per address that asked for mail about replies; address_key is its compared form (kit/email-address.ts).
CREATE TABLE blog_comment_subscribers (
  id text PRIMARY KEY,
  address text NOT NULL,
  address_key text NOT NULL UNIQUE,
  confirmed boolean NOT NULL DEFAULT false,
  confirmation_sent_at timestamptz,
  claim text,
  watched text[] NOT NULL DEFAULT '{}'
);

-- The SHA-256 of each single-use link token: a confirmation, or the owner's moderation of a waiting comment.
CREATE TABLE blog_comment_mail_tokens (
  hash text PRIMARY KEY,
  action text NOT NULL CHECK (action IN ('confirm', 'moderate')),
  subscriber_id text,
  slug text,
  lang text,
  comment_id text,
  expires_at timestamptz NOT NULL
);
CREATE INDEX blog_comment_mail_tokens_by_expiry ON blog_comment_mail_tokens (expires_at);

-- A reply of the site written in /admin names the user who wrote it.
ALTER TABLE blog_comments ADD COLUMN by_user text;
`;
