// The public thread of a post version (docs/comments.md "Reading the comments"): its published comments, oldest
// first, each with only what may be shown. The address, the Markdown source, the status and spam reasons stay in
// the store. A long thread is sent often, so each comment carries no byte a reader does without: its time to the
// second (the fraction's digits zero; the store keeps milliseconds, which order the thread), and its HTML without the
// newline Markdown ends it with.
import type { CommentKind, StoredComment } from './comment-store.js';

/** A comment as GET /api/blog/posts/<slug>/comments gives it. */
export interface PublicComment {
  id: string;
  parent: string | null;
  author: { name: string; url: string | null };
  html: string;
  /** RFC 3339, to the second: "2026-11-29T10:00:00.000Z". */
  created_at: string;
  kind: CommentKind;
}

/** The answer's body: the published comments of `comments`, oldest first, and how many they are. */
export function publicThreadOf(comments: readonly StoredComment[]): { comments: PublicComment[]; total: number } {
  const shown = comments
    .filter((comment) => comment.status === 'published')
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
    .map(({ id, parent, author, html, createdAt, kind }) => ({
      id,
      parent,
      author: { name: author.name, url: author.url },
      html: html.trimEnd(),
      created_at: toTheSecond(createdAt),
      kind,
    }));
  return { comments: shown, total: shown.length };
}

/** An RFC 3339 time with the digits of its fraction of a second zero: "2026-11-29T10:00:00.123Z" as "...00.000Z". */
export function toTheSecond(time: string): string {
  return time.replace(/(T\d\d:\d\d:\d\d\.)(\d+)/, (_, whole: string, fraction: string) => whole + '0'.repeat(fraction.length));
}
