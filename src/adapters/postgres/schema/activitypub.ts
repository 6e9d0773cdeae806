// The blog's ActivityPub records (docs/activitypub.md "What is kept"), as data_dir/activitypub/ keeps them.
// Migration version 16 (src/adapters/postgres/migrations.ts).
export const ACTIVITYPUB_TABLES = `
-- The actor's key pair as JSON Web Keys: one row, made once.
CREATE TABLE activitypub_keys (
  id integer PRIMARY KEY CHECK (id = 1),
  private_key jsonb NOT NULL,
  public_key jsonb NOT NULL
);

CREATE TABLE activitypub_followers (
  actor_id text PRIMARY KEY,
  inbox text NOT NULL,
  shared_inbox text,
  followed_at timestamptz NOT NULL DEFAULT now()
);

-- Per post version (slug@lang): the Article id delivered and the change last sent.
CREATE TABLE activitypub_delivered (
  post_key text PRIMARY KEY,
  article_id text NOT NULL,
  change text NOT NULL
);

-- Each reply, like or boost that became a comment: the actor that sent it and the comment.
CREATE TABLE activitypub_remote_objects (
  object_id text PRIMARY KEY,
  actor_id text NOT NULL,
  slug text NOT NULL,
  lang text NOT NULL,
  comment_id text NOT NULL
);
CREATE INDEX activitypub_remote_objects_by_actor ON activitypub_remote_objects (actor_id);
`;

/**
 * Migration version 18: per post version, the inboxes its latest activity was queued for, one row each; a replica
 * takes a row before queueing, so replicas that see the same change queue it once.
 */
export const ACTIVITYPUB_QUEUED_TABLE = `
CREATE TABLE activitypub_queued (
  post_key text NOT NULL,
  activity_id text NOT NULL,
  inbox text NOT NULL,
  PRIMARY KEY (post_key, activity_id, inbox)
);
`;
