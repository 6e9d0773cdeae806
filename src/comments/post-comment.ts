// A comment sent to a post (docs/comments.md "Sending a comment"), in the order of its checks: the fields, the
// comment it answers, the spam rules of `[blog.comments.spam]` (the honeypot, the content rules, proof of work),
// then moderation. It returns what happened; comment-routes.ts turns that into HTTP.
import type { SpamCheck } from '../forms/spam/spam-check.js';
import type { Clock } from '../ports.js';
import { checkCommentFields, type FieldError } from './comment-fields.js';
import type { CommentStore, StoredComment } from './comment-store.js';
import type { CommentedPost } from './commented-post.js';
import { isThreadClosed, statusOfNewComment, type Moderation } from './moderation.js';

export interface CommentSettings {
  moderation: Moderation;
  closeAfterDays: number | undefined;
  /** `[blog.comments.spam] action`: "reject" answers a spam verdict with 400, "quarantine" keeps it as spam. */
  spamAction: 'quarantine' | 'reject';
}

export interface PostCommentDeps {
  store: CommentStore;
  spam: SpamCheck;
  render(text: string): string;
  /** A new comment id: random, letters and digits. */
  createId(): string;
  clock: Clock;
}

export type PostCommentOutcome =
  | { kind: 'accepted'; id: string; status: 'pending' | 'published'; comment: StoredComment; notify: boolean }
  | { kind: 'invalid'; details: FieldError[] }
  | { kind: 'closed' }
  | { kind: 'spam_rejected' };

/** Takes one comment for `post` from the parsed body `body`, sent from `clientAddress`. */
export async function postComment(
  settings: CommentSettings,
  deps: PostCommentDeps,
  post: CommentedPost,
  body: Readonly<Record<string, unknown>>,
  clientAddress: string,
): Promise<PostCommentOutcome> {
  const now = deps.clock();
  if (isThreadClosed(post.dateMs, settings.closeAfterDays, now)) return { kind: 'closed' };
  const checked = checkCommentFields(body);
  if (!checked.ok) return { kind: 'invalid', details: checked.details };
  const { fields } = checked;
  if (fields.parent !== null) {
    const thread = await deps.store.listVersion(post);
    if (!thread.some((comment) => comment.id === fields.parent && comment.status === 'published')) {
      return { kind: 'invalid', details: [{ field: 'parent', message: 'The comment answered is not a published comment of this post.' }] };
    }
  }
  const verdict = await deps.spam.check(body, { name: fields.name, email: fields.email ?? '', message: fields.text }, clientAddress, now);
  const reasons: string[] = [...(checked.honeypotHit ? ['honeypot'] : []), ...verdict.reasons];
  if (reasons.length > 0 && settings.spamAction === 'reject' && !verdict.captchaUnreachable) return { kind: 'spam_rejected' };
  const approved = reasons.length === 0 && fields.email !== null && settings.moderation === 'first' && (await deps.store.isApprovedAddress(fields.email));
  const status = statusOfNewComment(settings.moderation, reasons.length > 0, approved);
  const comment: StoredComment = {
    id: deps.createId(),
    slug: post.slug,
    lang: post.lang,
    parent: fields.parent,
    author: { name: fields.name, url: fields.url },
    email: fields.email,
    text: fields.text,
    html: deps.render(fields.text),
    createdAt: new Date(now).toISOString(),
    status,
    kind: 'comment',
    ...(reasons.length > 0 ? { reasons } : {}),
  };
  await deps.store.add(comment);
  // Spam is answered as a comment that waits: a bot learns nothing of the verdict.
  return { kind: 'accepted', id: comment.id, status: status === 'published' ? 'published' : 'pending', comment, notify: isTicked(body.notify) };
}

/** Whether `notify` asks for reply notifications: JSON `true`, or a ticked checkbox's "on" ("true", "1"). */
function isTicked(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === 'string' && ['on', 'true', '1', 'yes'].includes(value.trim().toLowerCase());
}
