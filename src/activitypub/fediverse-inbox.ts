// What the blog does with the activities its inbox takes (docs/activitypub.md "Followers" and "Replies, likes and
// boosts"), once the library checked their signatures: a Follow adds a follower (and is accepted), an Undo of it or
// the Delete of the actor removes it; a reply, like or boost of a post becomes a comment of docs/comments.md
// (`reply`, `like`, `repost`) through the content rules and the moderation comments go through, and its Undo or
// Delete takes the comment away. Plain data in, the stores' changes out: the library stays in federation/.
import type { Clock } from '../ports.js';
import type { CommentedVersion, CommentKind, CommentStore, StoredComment } from '../comments/comment-store.js';
import type { CommentedPost } from '../comments/commented-post.js';
import { isThreadClosed, statusOfNewComment, type Moderation } from '../comments/moderation.js';
import type { ActivityPubStore, Follower } from './activitypub-store.js';

/** A reply, like or boost of one of the blog's posts. */
export interface Reaction {
  kind: Extract<CommentKind, 'reply' | 'like' | 'repost'>;
  /** The remote object's id (the Note, the Like or the Announce): what a later Undo or Delete names. */
  objectId: string;
  actor: { id: string; name: string; url: string | null };
  /** The Note's HTML; empty for a like or boost. */
  html: string;
  /** RFC 3339, or undefined for now. */
  published?: string;
}

export interface InboxSettings {
  moderation: Moderation;
  /** `[blog.comments] close_after_days`: an older post takes no more reactions. */
  closeAfterDays: number | undefined;
  spamAction: 'quarantine' | 'reject';
}

export interface InboxDeps {
  store: ActivityPubStore;
  /** The blog's comments; undefined when [blog.comments] is off (reactions are then not kept). */
  comments?: CommentStore;
  /** The post a reaction names (an Article id or a post's public page), when it takes comments; a reaction may also name a comment that came from the fediverse. */
  findPost(url: string): CommentedPost | undefined;
  /** The post version of a comment, when it still takes comments. */
  postOf(version: CommentedVersion): CommentedPost | undefined;
  contentRules(submission: { name: string; email: string; message: string }): string[];
  /** Remote HTML cut down to what a comment may hold. */
  sanitize(html: string): string;
  /** Plain text of comment HTML, for the content rules and the Markdown field. */
  textOf(html: string): string;
  createId(): string;
  clock: Clock;
}

export type ReactionOutcome = 'kept' | 'no_post' | 'closed' | 'comments_off' | 'rejected';

export interface FediverseInbox {
  follow(follower: Follower): Promise<void>;
  unfollow(actorId: string): Promise<void>;
  /** The actor was deleted: its follow goes. */
  actorGone(actorId: string): Promise<void>;
  react(reaction: Reaction, target: string): Promise<ReactionOutcome>;
  /** An Undo or Delete of a remote object by `actorId`: its comment goes. */
  retract(objectId: string, actorId: string): Promise<void>;
}

export function createFediverseInbox(settings: InboxSettings, deps: InboxDeps): FediverseInbox {
  const { store } = deps;

  /** The comment that came from `objectId`. */
  const commentOf = async (objectId: string): Promise<StoredComment | undefined> => {
    const kept = await store.remoteObject(objectId);
    if (!kept || !deps.comments) return undefined;
    return (await deps.comments.listVersion(kept.comment)).find((comment) => comment.id === kept.comment.id);
  };

  /** Under moderation "first": whether a reaction of this actor was approved before. */
  const isTrusted = async (actorId: string): Promise<boolean> => {
    const ids = new Set((await store.objectsOf(actorId)).map((object) => object.comment.id));
    if (ids.size === 0 || !deps.comments) return false;
    return (await deps.comments.listAll()).some((comment) => comment.status === 'published' && ids.has(comment.id));
  };

  return {
    follow: (follower) => store.addFollower(follower),
    unfollow: async (actorId) => void (await store.removeFollower(actorId)),
    actorGone: async (actorId) => void (await store.removeFollower(actorId)),

    async react(reaction, target) {
      if (!deps.comments) return 'comments_off';
      // A post, or a published comment that came from the fediverse: the reaction answers it, in its post's thread.
      const direct = deps.findPost(target);
      const named = direct ? undefined : await commentOf(target);
      const answered = named?.status === 'published' ? named : undefined;
      const post = direct ?? (answered && deps.postOf(answered));
      if (!post) return 'no_post';
      if (isThreadClosed(post.dateMs, settings.closeAfterDays, deps.clock())) return 'closed';
      const html = reaction.html === '' ? '' : deps.sanitize(reaction.html);
      const text = html === '' ? '' : deps.textOf(html);
      const reasons = deps.contentRules({ name: reaction.actor.name, email: '', message: text });
      if (reasons.length > 0 && settings.spamAction === 'reject') return 'rejected';
      const earlier = await commentOf(reaction.objectId);
      const trusted = settings.moderation === 'first' && reasons.length === 0 && (earlier?.status === 'published' || (await isTrusted(reaction.actor.id)));
      const comment: StoredComment = {
        id: earlier?.id ?? deps.createId(),
        slug: post.slug,
        lang: post.lang,
        parent: answered?.id ?? null,
        author: { name: reaction.actor.name, url: reaction.actor.url },
        email: null,
        text,
        html,
        createdAt: earlier?.createdAt ?? reaction.published ?? new Date(deps.clock()).toISOString(),
        status: statusOfNewComment(settings.moderation, reasons.length > 0, trusted),
        kind: reaction.kind,
        ...(reasons.length > 0 ? { reasons } : {}),
      };
      await store.addRemoteObject({ objectId: reaction.objectId, actorId: reaction.actor.id, comment: { slug: comment.slug, lang: comment.lang, id: comment.id } });
      if (earlier) await deps.comments.remove(earlier, earlier.id);
      await deps.comments.add(comment);
      return 'kept';
    },

    async retract(objectId, actorId) {
      // Only the actor that sent it may take it back.
      const kept = await store.remoteObject(objectId);
      if (!kept || kept.actorId !== actorId) return;
      await deps.comments?.remove(kept.comment, kept.comment.id);
      await store.removeRemoteObject(objectId);
    },
  };
}
