// The blog's posts delivered to its followers (docs/activitypub.md "Delivery"): each new snapshot of the content is
// compared with the record of what was delivered (delivery-plan.ts) and every change is queued, one activity per
// shared inbox, before the record moves on; snapshots are taken one at a time, in order. A restart that changed
// nothing sends nothing, and each inbox of a change is taken in the store before it is queued, so that replicas
// that see the same change queue it once.
import type { BlogSnapshot } from '../../blog/http/snapshot.js';
import type { ActivityPubStore } from '../activitypub-store.js';
import type { ArticleFields } from '../article.js';
import type { Catalog, CatalogEntry } from '../../blog/catalog/catalog.js';
import { inboxesOf, planChanges, postKeyOf } from '../delivery-plan.js';
import { activityOf, type Audience } from './activity-objects.js';
import type { QueuedActivity } from './blog-federation.js';

export interface PublisherDeps {
  /** The catalog's published versions as Articles (article.ts createArticleList). */
  articlesOf(catalog: Catalog, html: (entry: CatalogEntry) => string): ArticleFields[];
  audience: Audience;
  store: ActivityPubStore;
  enqueue(activities: readonly QueuedActivity[]): Promise<void>;
  /** RFC 3339 now, for an Update's time. */
  now(): string;
  onError(error: unknown): void;
}

export function createPostPublisher(deps: PublisherDeps): { notice(snapshot: BlogSnapshot): void; settled(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  const publish = async (snapshot: BlogSnapshot) => {
    const current = deps.articlesOf(snapshot.catalog, (entry) => snapshot.html(entry));
    const { changes, delivered } = planChanges(await deps.store.readDelivered(), current);
    if (changes.length === 0) return;
    const inboxes = inboxesOf(await deps.store.followers());
    if (inboxes.length > 0) {
      const activities: QueuedActivity[] = [];
      const taken: Array<{ postKey: string; activityId: string; inboxes: string[] }> = [];
      try {
        for (const change of changes) {
          const activity = (await activityOf(change, deps.audience, deps.now()).toJsonLd()) as Record<string, unknown>;
          const postKey = postKeyOf(change);
          const activityId = String(activity.id);
          // Each inbox is taken before it is queued: another replica that saw the same change took it, or gets nothing.
          const mine = await deps.store.takeInboxes(postKey, activityId, inboxes);
          taken.push({ postKey, activityId, inboxes: mine });
          for (const inbox of mine) activities.push({ inbox, activity });
        }
        if (activities.length > 0) await deps.enqueue(activities);
      } catch (error) {
        for (const given of taken) await deps.store.giveBackInboxes(given.postKey, given.activityId, given.inboxes).catch(() => undefined);
        throw error;
      }
    }
    await deps.store.writeDelivered(delivered);
  };
  return {
    notice(snapshot) {
      chain = chain.then(() => publish(snapshot)).catch(deps.onError);
    },
    settled: () => chain,
  };
}
