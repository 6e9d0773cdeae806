// The blog's posts in the ActivityPub vocabulary (docs/activitypub.md "Posts"): an Article, and the Create, Update
// or Delete that carries a change of it to the followers, as JSON-LD ready for the queue.
import type { ArticleFields } from '../article.js';
import type { PostChange } from '../delivery-plan.js';
import { temporal, vocab, type Vocab } from './fedify.js';

/** Who the blog's activities are addressed to: everybody, and the followers. */
export interface Audience {
  actorId: string;
  followersId: string;
}

const instant = (rfc3339: string) => temporal().Temporal.Instant.from(rfc3339);

export function articleObject(article: ArticleFields, audience: Audience): Vocab.Article {
  const { Article, Hashtag, Image, PUBLIC_COLLECTION } = vocab();
  return new Article({
    id: new URL(article.id),
    attribution: new URL(audience.actorId),
    name: article.name,
    summary: article.summary,
    content: article.content,
    url: new URL(article.url),
    published: instant(article.published),
    updated: article.updated === null ? null : instant(article.updated),
    tags: article.tags.map((tag) => new Hashtag({ name: `#${tag}` })),
    attachments: article.images.map((image) => new Image({ url: new URL(image.url), name: image.alt })),
    to: PUBLIC_COLLECTION,
    cc: new URL(audience.followersId),
  });
}

/** The Create of an Article, as the outbox lists it and a follower receives it. */
export function createOf(article: ArticleFields, audience: Audience): Vocab.Create {
  const { Create, PUBLIC_COLLECTION } = vocab();
  return new Create({
    id: new URL(`${article.id}#create`),
    actor: new URL(audience.actorId),
    object: articleObject(article, audience),
    published: instant(article.published),
    to: PUBLIC_COLLECTION,
    cc: new URL(audience.followersId),
  });
}

/**
 * The activity of one change. Its id is the same wherever and whenever the change is seen (each replica makes the
 * same), and each Update and Delete has one of its own: an Update names the change it carries, a Delete the one it
 * takes away.
 */
export function activityOf(change: PostChange, audience: Audience, now: string): Vocab.Activity {
  const { Update, Delete, Tombstone, PUBLIC_COLLECTION } = vocab();
  if (change.type === 'create') return createOf(change.article, audience);
  const addressed = { actor: new URL(audience.actorId), to: PUBLIC_COLLECTION, cc: new URL(audience.followersId) };
  if (change.type === 'update') {
    return new Update({ id: new URL(`${change.article.id}#update-${change.article.change}`), object: articleObject(change.article, audience), updated: instant(now), ...addressed });
  }
  return new Delete({ id: new URL(`${change.id}#delete-${change.change}`), object: new Tombstone({ id: new URL(change.id) }), ...addressed });
}
