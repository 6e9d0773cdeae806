// The blog's comments (docs/comments.md "Where comments are kept"): one row per comment, whatever its status, and
// the addresses whose comment a person approved. Like the files of data_dir/comments/.
// Migration version 9 (src/adapters/postgres/migrations.ts).
export const COMMENT_TABLES = `
-- One row per comment of a post version (slug and language). The address is kept for moderation and never shown.
CREATE TABLE blog_comments (
  id text PRIMARY KEY,
  slug text NOT NULL,
  lang text NOT NULL,
  parent text,
  author_name text NOT NULL,
  author_url text,
  email text,
  body text NOT NULL,
  html text NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('waiting', 'published', 'spam')),
  kind text NOT NULL DEFAULT 'comment',
  reasons text[]
);
CREATE INDEX blog_comments_by_version ON blog_comments (slug, lang, created_at);
CREATE INDEX blog_comments_by_time ON blog_comments (created_at);

-- The addresses (compared form, kit/email-address.ts) that moderation = "first" trusts.
CREATE TABLE blog_comment_approved_addresses (
  address text PRIMARY KEY
);
`;

// Migration version 11: the page a webmention came from (docs/comments.md "Webmentions"); null for a comment.
export const WEBMENTION_SOURCE_COLUMN = `
ALTER TABLE blog_comments ADD COLUMN source text;
CREATE INDEX blog_comments_by_source ON blog_comments (source) WHERE source IS NOT NULL;
`;

// Migration version 12: the webmentions received (docs/comments.md "Receiving"), kept before their 202 and claimed
// by one replica at a time for verification (claimed_until: the lease); and the webmentions sent, one row per
// (post version, change, target), so that of several replicas one queues each.
export const WEBMENTION_TABLES = `
CREATE TABLE blog_webmentions_received (
  id text PRIMARY KEY,
  source text NOT NULL,
  target text NOT NULL,
  slug text NOT NULL,
  lang text NOT NULL,
  received_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'accepted', 'refused')),
  reason text,
  claimed_until timestamptz
);
CREATE INDEX blog_webmentions_received_pending ON blog_webmentions_received (received_at) WHERE status = 'pending';

CREATE TABLE blog_webmentions_sent (
  version text NOT NULL,
  change text NOT NULL,
  target text NOT NULL,
  PRIMARY KEY (version, change, target)
);
`;
