// The blog as an ActivityPub actor, on Fedify (docs/activitypub.md): a Service with its key pair, WebFinger,
// NodeInfo 2.1, the paged outbox of its posts, the followers collection (its size only), the posts as Articles, and
// the inbox (its own and the shared one), whose activities the library checks (HTTP Signatures, RFC 9421 and the
// older draft; unsigned or badly signed: 401) before fediverse-inbox.ts decides what they change. Every activity
// the blog sends, the Accept of a Follow included, goes through the queue (`enqueue`), never straight out.
import type { ActorKeys, ActivityPubStore } from '../activitypub-store.js';
import { ARTICLE_PATH, type ArticleFields } from '../article.js';
import type { FediverseInbox, Reaction } from '../fediverse-inbox.js';
import { createOf, articleObject, type Audience } from './activity-objects.js';
import { createDocumentLoaderFactories } from './document-loaders.js';
import { fedify, vocab, type Fedify, type Vocab } from './fedify.js';
import { ACTOR_PATH, FOLLOWERS_PATH, INBOX_PATH, NODEINFO_PATH, OUTBOX_PATH, SHARED_INBOX_PATH } from './paths.js';

export interface FederationSettings {
  /** The origin of blog.public_url: every id the blog gives is on it. */
  origin: string;
  username: string;
  /** The actor's name and summary, and the site it stands for. */
  name: string;
  summary: string | undefined;
  siteUrl: string;
  softwareVersion: string;
}

/** An activity for the queue: JSON-LD to one inbox. */
export interface QueuedActivity {
  inbox: string;
  activity: Record<string, unknown>;
}

export interface FederationDeps {
  store: ActivityPubStore;
  inbox: FediverseInbox;
  /** The published posts now, newest first. */
  articles(): ArticleFields[];
  /** The actor's key pair as CryptoKeys (made once, kept in the store). */
  keyPair(): Promise<CryptoKeyPair>;
  enqueue(activities: readonly QueuedActivity[]): Promise<void>;
  createId(): string;
  /** Hears what the inbox could not take, for the log. */
  onInboxError(error: unknown): void;
  /** Every fetch of an actor, a key or an object: the one that refuses private addresses unless they are allowed. */
  fetch: typeof fetch;
}

/** Posts the outbox lists per page. */
const OUTBOX_PAGE = 20;

export function createBlogFederation(settings: FederationSettings, deps: FederationDeps): Fedify.Federation<void> {
  const { createFederation, MemoryKvStore } = fedify();
  const { Service, Endpoints, Follow, Accept, Undo, Delete, Create, Update, Note, Like, Announce, Article, Link, PUBLIC_COLLECTION } = vocab();
  const { username, origin } = settings;
  // Fetched actors and keys are cached here for the process; what must last is in the store.
  const kv = new MemoryKvStore();
  const federation = createFederation<void>({ kv, origin, ...createDocumentLoaderFactories(deps.fetch, kv) });
  const audienceOf = (context: Fedify.Context<void>): Audience => ({ actorId: context.getActorUri(username).href, followersId: context.getFollowersUri(username).href });

  federation
    .setActorDispatcher(ACTOR_PATH, async (context, identifier) => {
      if (identifier !== username) return null;
      const keys = await context.getActorKeyPairs(identifier);
      return new Service({
        id: context.getActorUri(identifier),
        preferredUsername: username,
        name: settings.name,
        summary: settings.summary ?? null,
        url: new URL(settings.siteUrl),
        inbox: context.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: context.getInboxUri() }),
        outbox: context.getOutboxUri(identifier),
        followers: context.getFollowersUri(identifier),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
        manuallyApprovesFollowers: false,
        discoverable: true,
      });
    })
    .mapHandle((_context, handle) => (handle === username ? username : null))
    .setKeyPairsDispatcher(async (_context, identifier) => (identifier === username ? [await deps.keyPair()] : []));

  federation.setNodeInfoDispatcher(NODEINFO_PATH, () => ({
    software: { name: 'postbox', version: settings.softwareVersion },
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: { users: { total: 1, activeHalfyear: 1, activeMonth: 1 }, localPosts: deps.articles().length, localComments: 0 },
  }));

  federation
    .setOutboxDispatcher(OUTBOX_PATH, (context, identifier, cursor) => {
      if (identifier !== username || cursor === null) return null;
      const start = Math.max(0, Number.parseInt(cursor, 10) || 0);
      const articles = deps.articles();
      const audience = audienceOf(context);
      const next = start + OUTBOX_PAGE;
      return { items: articles.slice(start, next).map((article) => createOf(article, audience)), nextCursor: next < articles.length ? String(next) : null };
    })
    .setCounter((_context, identifier) => (identifier === username ? deps.articles().length : null))
    .setFirstCursor(() => '0');

  // The followers' size is public; who they are is not.
  federation
    .setFollowersDispatcher(FOLLOWERS_PATH, (_context, identifier) => (identifier === username ? { items: [] } : null))
    .setCounter(async (_context, identifier) => (identifier === username ? (await deps.store.followers()).length : null));

  federation.setObjectDispatcher(Article, ARTICLE_PATH, (context, values) => {
    const article = deps.articles().find((candidate) => candidate.key === `${values.slug}@${values.lang}`);
    return article ? articleObject(article, audienceOf(context)) : null;
  });

  /** A reaction's author as a comment shows it. */
  const authorOf = async (actor: Vocab.Object | null): Promise<Reaction['actor'] | undefined> => {
    if (!actor?.id) return undefined;
    const named = actor as Vocab.Object & { preferredUsername?: unknown };
    const name = actor.name?.toString() || (typeof named.preferredUsername === 'string' ? named.preferredUsername : '') || actor.id.host;
    const url = actor.url instanceof Link ? actor.url.href : actor.url;
    return { id: actor.id.href, name: name.slice(0, 100), url: url?.href ?? actor.id.href };
  };

  /** A Create or Update of a Note that answers one of the blog's posts. */
  const onNote = async (context: Fedify.InboxContext<void>, activity: Vocab.Create | Vocab.Update) => {
    const note = await activity.getObject(context);
    if (!(note instanceof Note) || !note.id || !note.replyTargetId) return;
    // Only a public reply may become a public comment: a direct or followers-only one stays private.
    if (![...note.toIds, ...note.ccIds].some((id) => id.href === PUBLIC_COLLECTION.href)) return;
    const actor = await authorOf(await activity.getActor(context));
    if (!actor || note.attributionId?.href !== actor.id) return;
    const reaction: Reaction = { kind: 'reply', objectId: note.id.href, actor, html: note.content?.toString() ?? '', published: note.published?.toString() };
    await deps.inbox.react(reaction, note.replyTargetId.href);
  };

  federation
    .setInboxListeners(INBOX_PATH, SHARED_INBOX_PATH)
    .on(Follow, async (context, follow) => {
      if (!follow.id || follow.objectId?.href !== context.getActorUri(username).href) return;
      const follower = await follow.getActor(context);
      if (!follower?.id || !follower.inboxId) return;
      await deps.inbox.follow({ id: follower.id.href, inbox: follower.inboxId.href, sharedInbox: follower.endpoints?.sharedInbox?.href ?? null });
      const accept = new Accept({ id: new URL(`${origin}/activitypub/activities/${deps.createId()}`), actor: context.getActorUri(username), object: follow, to: follower.id });
      await deps.enqueue([{ inbox: follower.inboxId.href, activity: (await accept.toJsonLd({ contextLoader: context.contextLoader })) as Record<string, unknown> }]);
    })
    .on(Undo, async (context, undo) => {
      const object = await undo.getObject(context);
      if (!undo.actorId || !object?.id) return;
      if (object instanceof Follow) {
        if (object.actorId?.href === undo.actorId.href) await deps.inbox.unfollow(undo.actorId.href);
      } else await deps.inbox.retract(object.id.href, undo.actorId.href);
    })
    .on(Delete, async (_context, deletion) => {
      if (!deletion.actorId || !deletion.objectId) return;
      if (deletion.objectId.href === deletion.actorId.href) await deps.inbox.actorGone(deletion.actorId.href);
      else await deps.inbox.retract(deletion.objectId.href, deletion.actorId.href);
    })
    .on(Create, onNote)
    .on(Update, onNote)
    .on(Like, async (context, like) => {
      const actor = await authorOf(await like.getActor(context));
      if (actor && like.id && like.objectId) await deps.inbox.react({ kind: 'like', objectId: like.id.href, actor, html: '' }, like.objectId.href);
    })
    .on(Announce, async (context, announce) => {
      const actor = await authorOf(await announce.getActor(context));
      if (actor && announce.id && announce.objectId) await deps.inbox.react({ kind: 'repost', objectId: announce.id.href, actor, html: '', published: announce.published?.toString() }, announce.objectId.href);
    })
    .onError((_context, error) => deps.onInboxError(error))
    // A deleted actor's key is gone (410), so its own Delete cannot be verified; the key's answer proves the
    // deletion, and it only removes that actor's follow.
    .onUnverifiedActivity(async (_context, activity, reason) => {
      const actorId = activity.actorId?.href;
      if (!(activity instanceof Delete) || actorId === undefined || activity.objectId?.href !== actorId) return;
      if (reason.type !== 'keyFetchError' || !('status' in reason.result) || reason.result.status !== 410) return;
      if (reason.keyId.href.split('#')[0] !== actorId) return;
      await deps.inbox.actorGone(actorId);
      return new Response(null, { status: 202 });
    });

  return federation;
}

/** The kept JSON Web Keys as the CryptoKeys the library signs with. */
export async function cryptoKeysOf(keys: ActorKeys): Promise<CryptoKeyPair> {
  const { importJwk } = fedify();
  return { privateKey: await importJwk(keys.privateKey, 'private'), publicKey: await importJwk(keys.publicKey, 'public') };
}

/** A new RSA key pair (RSASSA-PKCS1-v1_5, what Mastodon verifies) as JSON Web Keys. */
export async function createActorKeys(): Promise<ActorKeys> {
  const { generateCryptoKeyPair, exportJwk } = fedify();
  const pair = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  return { privateKey: await exportJwk(pair.privateKey), publicKey: await exportJwk(pair.publicKey) };
}
