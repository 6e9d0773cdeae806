// The one visibility rule (docs/blog.md "Drafts" and "Scheduled posts"): every list, count, feed, sitemap,
// translation map and detail of the API, and the admin's listing of versions, ask it.
import type { PostVersion } from '../content/post.js';

/** A parsed version as the API sees it at one moment. */
export type Visibility = 'published' | 'draft' | 'scheduled';

/**
 * `draft = true` wins; otherwise a version whose date (a plain date is midnight UTC) is after `now`
 * (milliseconds since the epoch) is scheduled, and it is published from that very millisecond on.
 */
export function visibilityOf(post: Pick<PostVersion, 'draft' | 'date'>, now: number): Visibility {
  if (post.draft) return 'draft';
  return post.date.time > now ? 'scheduled' : 'published';
}
