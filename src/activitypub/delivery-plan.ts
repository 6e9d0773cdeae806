// Which activities a new catalog calls for (docs/activitypub.md "Delivery"): a version not delivered yet is a
// Create, one whose change differs an Update, one delivered that is no longer published a Delete. And where they
// go: one POST per shared inbox. Pure.
import type { ArticleFields } from './article.js';
import type { DeliveredRecord, Follower } from './activitypub-store.js';

export type PostChange = { type: 'create'; article: ArticleFields } | { type: 'update'; article: ArticleFields } | { type: 'delete'; key: string; id: string; change: string };

/** The version (`<slug>@<lang>`) a change is of. */
export const postKeyOf = (change: PostChange): string => (change.type === 'delete' ? change.key : change.article.key);

/** The changes from `delivered` to the `current` Articles, and the record once they are sent. */
export function planChanges(delivered: DeliveredRecord, current: readonly ArticleFields[]): { changes: PostChange[]; delivered: DeliveredRecord } {
  const changes: PostChange[] = [];
  const next: DeliveredRecord = {};
  for (const article of current) {
    const earlier = delivered[article.key];
    if (earlier === undefined) changes.push({ type: 'create', article });
    else if (earlier.change !== article.change) changes.push({ type: 'update', article });
    next[article.key] = { id: article.id, change: article.change };
  }
  for (const [key, { id, change }] of Object.entries(delivered)) if (next[key] === undefined) changes.push({ type: 'delete', key, id, change });
  return { changes, delivered: next };
}

/** The inboxes that reach every follower: each shared inbox once, and the own inbox of a follower without one. */
export function inboxesOf(followers: readonly Follower[]): string[] {
  return [...new Set(followers.map((follower) => follower.sharedInbox ?? follower.inbox))];
}
