// /admin: the post editor's unsaved drafts (docs/admin.md "Posts"), one row per person and key (the post file, or
// "new"), like the files of data_dir/admin-drafts/. Part of migration version 4 (src/adapters/postgres/migrations.ts).
export const ADMIN_DRAFT_TABLES = `
-- What a person typed in the editor and has not saved: the form's fields (as JSON), the Markdown text, and when the
-- server received it (milliseconds since the epoch). Never a post: the blog reads blog.content_dir only.
CREATE TABLE admin_drafts (
  user_name text NOT NULL,
  draft_key text NOT NULL,
  fields jsonb NOT NULL,
  body text NOT NULL,
  saved_at bigint NOT NULL,
  PRIMARY KEY (user_name, draft_key)
);
`;
