// The post a comment request names (docs/comments.md): a published version of the blog's current catalog, found as
// the post detail finds it (`?lang=` included), whose comments are on.
import type { BlogSnapshot } from '../blog/http/snapshot.js';
import { findPost } from '../blog/catalog/catalog.js';
import { languageKey } from '../blog/content/language.js';
import type { CommentedVersion } from './comment-store.js';

/** A post version that takes comments. */
export interface CommentedPost extends CommentedVersion {
  /** The post's date, ms since the epoch (close_after_days counts from it). */
  dateMs: number;
  /** The front matter `author`, which decides whose comments an author may moderate in /admin. */
  author: string | null;
}

/** Finds the post version of `slug` in `lang` (the primary one without it); undefined when it takes no comments. */
export type FindCommentedPost = (slug: string, lang: string | undefined) => CommentedPost | undefined;

/** Looks posts up in the snapshot served now. */
export function createCommentedPostFinder(current: () => BlogSnapshot): FindCommentedPost {
  return (slug, lang) => {
    const found = findPost(current().catalog, slug, lang);
    if (found.kind !== 'found') return undefined;
    const { post } = found.entry;
    if (!post.comments) return undefined;
    return { slug: post.slug, lang: post.lang, dateMs: post.date.time, author: post.author };
  };
}

/** The front matter `author` of the published version `lang` of `slug`, null when it names none or is not published. */
export function createPostAuthorFinder(current: () => BlogSnapshot): (version: CommentedVersion) => string | null {
  return ({ slug, lang }) => current().catalog.groups.get(slug)?.versions.get(languageKey(lang))?.post.author ?? null;
}
