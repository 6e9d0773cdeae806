// Migration version 20: a stamp per post version's comments (docs/comments.md "Where comments are kept"), so that a
// replica finds out whether a thread changed with one indexed row read instead of reading the thread.
//
// The trigger bumps it in the statement that inserts, updates or deletes a comment, in the same transaction, so
// no reader ever sees a changed thread under its old stamp. A version without a row has never changed since this
// migration; the store reads it as stamp 0.
export const COMMENT_THREAD_STAMPS = `
CREATE TABLE blog_comment_thread_stamps (
  slug text NOT NULL,
  lang text NOT NULL,
  stamp bigint NOT NULL,
  PRIMARY KEY (slug, lang)
);

-- NEW is null when a comment is removed, OLD when one is added; a comment moved to another version bumps both.
CREATE FUNCTION blog_comment_thread_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO blog_comment_thread_stamps AS stamps (slug, lang, stamp) VALUES (OLD.slug, OLD.lang, 1)
      ON CONFLICT (slug, lang) DO UPDATE SET stamp = stamps.stamp + 1;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO blog_comment_thread_stamps AS stamps (slug, lang, stamp) VALUES (NEW.slug, NEW.lang, 1)
      ON CONFLICT (slug, lang) DO UPDATE SET stamp = stamps.stamp + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    IF (NEW.slug, NEW.lang) IS DISTINCT FROM (OLD.slug, OLD.lang) THEN
      INSERT INTO blog_comment_thread_stamps AS stamps (slug, lang, stamp) VALUES (NEW.slug, NEW.lang, 1)
        ON CONFLICT (slug, lang) DO UPDATE SET stamp = stamps.stamp + 1;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER blog_comments_stamp AFTER INSERT OR UPDATE OR DELETE ON blog_comments
  FOR EACH ROW EXECUTE FUNCTION blog_comment_thread_changed();
`;
