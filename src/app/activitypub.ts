// [blog.activitypub] (docs/activitypub.md): the blog as an actor of the fediverse. Made in two steps around the mail
// core: first what sends a queued activity (signed with the key pair kept in the backend), which the queue's
// dispatch needs; then, on that queue, the federation (routes for the blog listener, the inbox into the comments)
// and the publisher that queues each post change. Fedify loads on the first request or change, never at start.
import { randomBytes } from 'node:crypto';
import type * as HtmlToText from 'html-to-text';
import type { Backend } from '../adapters/backend.js';
import { createArticleList } from '../activitypub/article.js';
import { createFediverseInbox } from '../activitypub/fediverse-inbox.js';
import { createBlogFederation, createActorKeys, cryptoKeysOf, type QueuedActivity } from '../activitypub/federation/blog-federation.js';
import { actorIdOf, followersIdOf, keyIdOf } from '../activitypub/federation/paths.js';
import { createPostPublisher } from '../activitypub/federation/post-publisher.js';
import { createSignedDelivery } from '../activitypub/federation/signed-delivery.js';
import { createActivityPubRoutes } from '../activitypub/http/activitypub-routes.js';
import { createPinnedFetch } from '../adapters/web/pinned-fetch.js';
import type { BlogContent } from '../blog/blog-content.js';
import type { BlogSnapshot } from '../blog/http/snapshot.js';
import { createCommentedPostFinder } from '../comments/commented-post.js';
import { sanitizeCommentHtml } from '../comments/render-comment.js';
import type { Config } from '../config/config.js';
import { createContentRules } from '../forms/spam/content-rules.js';
import type { Route } from '../http/route-table.js';
import { lazyModule } from '../kit/lazy-module.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { DeliveryQueue } from '../queue/worker.js';
import { VERSION } from '../version.js';

const htmlToText = lazyModule<typeof HtmlToText>('html-to-text');

export interface ActivityPubParts {
  logger: Logger;
  clock: Clock;
  /** Every outgoing request of ActivityPub; by default the fetch that connects only to the address it checked. */
  fetch?: typeof fetch;
}

/** The first step: how the queue sends an activity, and where the content's snapshots go until the queue exists. */
export interface ActivityPubSending {
  deliverActivity(inbox: string, activity: Record<string, unknown>): Promise<void>;
  notice(snapshot: BlogSnapshot): void;
  /** The second step, once the queue runs: the routes of the blog listener, and publishing from the latest snapshot on. */
  start(queue: Pick<DeliveryQueue, 'enqueue'>, content: Pick<BlogContent, 'current'>): { routes: Route[]; close(): Promise<void> };
}

/** The origin every id of the blog is on: blog.public_url's. */
const originOf = (config: Config) => new URL(config.blog!.public_url).origin;

export function composeActivityPubSending(config: Config, backend: Pick<Backend, 'activitypub' | 'comments'>, parts: ActivityPubParts): ActivityPubSending | undefined {
  const settings = config.blog?.activitypub;
  if (!settings?.enabled || !config.blog || !config.site) return undefined;
  const origin = originOf(config);
  const store = backend.activitypub;
  let keyPair: Promise<CryptoKeyPair> | undefined;
  const keys = () => (keyPair ??= store.keys(createActorKeys).then(cryptoKeysOf)).catch((error: unknown) => {
    keyPair = undefined;
    throw error;
  });
  const outgoing = parts.fetch ?? createPinnedFetch(settings.allow_private_address);
  let latest: BlogSnapshot | undefined;
  let hear: ((snapshot: BlogSnapshot) => void) | undefined;
  return {
    deliverActivity: createSignedDelivery({ keyId: keyIdOf(origin, settings.username) }, { keyPair: keys, fetch: outgoing }),
    notice(snapshot) {
      latest = snapshot;
      hear?.(snapshot);
    },
    start(queue, content) {
      const comments = config.blog!.comments;
      const createId = () => randomBytes(10).toString('hex');
      const enqueue = (activities: readonly QueuedActivity[]) => queue.enqueue(activities.map(({ inbox, activity }) => ({ channel: 'activitypub' as const, form: '' as const, inbox, activity })));
      const findCommented = createCommentedPostFinder(content.current);
      /** An Article id or a post's public page, as the post version it names. */
      const findPost = (url: string) => {
        const article = currentArticles().find((candidate) => candidate.id === url || candidate.url === url);
        return article && findCommented(article.slug, article.lang);
      };
      const articlesOf = createArticleList(origin);
      const currentArticles = () => {
        const snapshot = content.current();
        return articlesOf(snapshot.catalog, (entry) => snapshot.html(entry));
      };
      const inbox = createFediverseInbox(
        { moderation: comments.moderation, closeAfterDays: comments.close_after_days, spamAction: comments.spam.action },
        {
          store,
          comments: comments.enabled ? backend.comments : undefined,
          findPost,
          postOf: ({ slug, lang }) => findCommented(slug, lang),
          contentRules: createContentRules(comments.spam),
          sanitize: sanitizeCommentHtml,
          textOf: (html) => htmlToText().convert(html, { wordwrap: false }),
          createId,
          clock: parts.clock,
        },
      );
      let federation: ReturnType<typeof createBlogFederation> | undefined;
      const federationNow = () =>
        (federation ??= createBlogFederation(
          {
            origin,
            username: settings.username,
            name: config.site!.title,
            summary: config.site!.description || undefined,
            siteUrl: config.site!.base_url,
            softwareVersion: VERSION,
          },
          { store, inbox, articles: currentArticles, keyPair: keys, enqueue, createId, onInboxError: (error) => parts.logger.warn({ err: error, event: 'activity_not_taken' }, 'an incoming activity could not be taken'), fetch: outgoing },
        ));
      const actorId = actorIdOf(origin, settings.username);
      /** A browser that opens an Article or the actor is sent to the post's page or the site. */
      const pageOf = (asked: Request, actor: string) => {
        const page = asked.url === actor ? config.site!.base_url : currentArticles().find((article) => article.id === asked.url)?.url;
        return page === undefined ? new Response('Not Acceptable', { status: 406 }) : Response.redirect(page, 303);
      };
      const publisher = createPostPublisher({
        articlesOf,
        audience: { actorId, followersId: followersIdOf(origin, settings.username) },
        store,
        enqueue,
        now: () => new Date(parts.clock()).toISOString(),
        onError: (error) => parts.logger.error({ err: error, event: 'activity_not_queued' }, 'a post change could not be queued for the followers'),
      });
      hear = publisher.notice;
      publisher.notice(latest ?? content.current());
      return {
        routes: createActivityPubRoutes((request) => federationNow().fetch(request, { contextData: undefined, onNotAcceptable: (asked) => pageOf(asked, actorId) }), origin),
        close: async () => {
          hear = undefined;
          await publisher.settled();
        },
      };
    },
  };
}
