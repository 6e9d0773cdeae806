// Who may change which post (docs/admin.md "What each role may do"): owners and editors every post, an author
// only the posts whose front matter `author` is their name. The rule is one pure function; the post files apply
// it to the file on disk inside the write that acts on it (context.ts findPost), and the list to the blog's listing.
import { parseFrontMatter } from '../../blog/content/front-matter.js';
import type { Role } from '../accounts/account.js';
import type { PostFields } from './post-fields.js';

/** The person acting: an AdminSession is one. */
export interface PostActor {
  user: string;
  role: Role;
}

/** What the rule reads of a post: its front matter `author` (absent when there is none or it cannot be read). */
export interface PostOwnership {
  author?: string | undefined;
}

/** Whether the person may be shown `post` and change it; false also decides every operation's 403. */
export type PostAccess = (post: PostOwnership) => boolean;

/**
 * Whether `actor` may open, save, preview, publish, unpublish, translate, delete or upload an image for `post`:
 * owners and editors any post; an author only a post whose `author` (trimmed, as the blog reads it) is their
 * name. A post without an author, or whose front matter cannot be read, is nobody's: an author's no more.
 */
export function mayChangePost(actor: PostActor, post: PostOwnership): boolean {
  if (actor.role !== 'author') return true;
  return typeof post.author === 'string' && post.author.trim() === actor.user;
}

/** Whether `actor` may set the author field to anything: an author's posts always carry their own name. */
export function mayChangeAuthor(actor: PostActor): boolean {
  return actor.role !== 'author';
}

/**
 * The fields a create or a save writes for `actor`: for an author, their own name replaces the form's author;
 * the `raw_html` mark only for an owner (raw-html.ts).
 */
export function fieldsFor(actor: PostActor, fields: PostFields): PostFields {
  const marked = actor.role === 'owner' ? fields : { ...fields, rawHtml: false };
  return mayChangeAuthor(actor) ? marked : { ...marked, author: actor.user };
}

/** The ownership a post file's text gives: its front matter's `author` when that is text. */
export function ownershipOf(text: string): PostOwnership {
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return {};
  const author = parsed.data.author;
  return typeof author === 'string' ? { author } : {};
}
