// The public thread of a post version (docs/comments.md "Reading the comments"): its published comments, oldest
// first, each with only what may be shown. The address, the Markdown source, the status and spam reasons stay in
// the store.
import type { CommentKind, StoredComment } from './comment-store.js';

/** A comment as GET /api/blog/posts/<slug>/comments gives it. */
export interface PublicComment {
  id: string;
  parent: string | null;
  author: { name: string; url: string | null };
  html: string;
  created_at: string;
  kind: CommentKind;
}

/** The answer's body: the published comments of `comments`, oldest first, and how many they are. */
export function publicThreadOf(comments: readonly StoredComment[]): { comments: PublicComment[]; total: number } {
  const shown = comments
    .filter((comment) => comment.status === 'published')
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
    .map(({ id, parent, author, html, createdAt, kind }) => ({ id, parent, author: { name: author.name, url: author.url }, html, created_at: createdAt, kind }));
  return { comments: shown, total: shown.length };
}
