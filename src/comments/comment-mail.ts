// Reply notifications and the owner's mail (docs/comments.md "Reply notifications", "The owner's mail"): what
// happens after a comment is kept or published, and what the links of those mails do. A commenter who ticks
// `notify` gets one confirmation mail per address and day (the newsletter's double opt-in: a random single-use
// token, of which only the hash is kept, valid 48 hours); a confirmed address gets a mail when a reply to its
// comment is published, never for a reply of its own. Nothing is mailed about a comment taken for spam, and a
// reply is mailed only once it is published, so a visitor cannot have mail sent to anybody but an address that
// confirmed. The owner gets a mail per comment that waits, whose links (single use, 7 days) approve it or mark it
// spam. Mail failures are logged, never the comment's failure.
import type { Logger } from '../kit/log.js';
import { comparableEmailAddress } from '../kit/email-address.js';
import { safeReason } from '../kit/safe-reason.js';
import { createToken, hashToken } from '../newsletter/token.js';
import type { Clock, MailMessage, RandomBytes } from '../ports.js';
import type { CommentMailStore } from './comment-mail-store.js';
import type { CommentedVersion, CommentStore, StoredComment } from './comment-store.js';
import { confirmationMail, ownerMail, replyMail, type CommentLinks } from './comment-mails.js';

/** A confirmation link works this long (as the newsletter's default). */
export const CONFIRM_TTL_MS = 48 * 3_600_000;
/** At most one confirmation mail per address in this window. */
export const CONFIRM_RESEND_MS = 24 * 3_600_000;
/** The owner's Approve and Spam links work this long. */
export const MODERATION_TTL_MS = 7 * 24 * 3_600_000;

export type CommentMailKind = 'comment_confirmation' | 'comment_reply' | 'comment_owner';

export interface CommentMailSettings {
  from: string;
  siteName: string;
  /** Where the owner's mail goes; none without it. */
  ownerAddress: string | undefined;
  links: CommentLinks;
  /** The List-Id of the reply notifications (RFC 2919). */
  listId: string;
  /** The page of a post version, for the reply mail; '' when unknown. */
  postUrlOf(version: CommentedVersion): string;
}

export interface CommentMailDeps {
  comments: CommentStore;
  store: CommentMailStore;
  /** Hands a mail to the durable queue; resolves once it is kept. */
  send(kind: CommentMailKind, mail: MailMessage): Promise<void>;
  randomBytes: RandomBytes;
  clock: Clock;
  logger: Logger;
  /** Writes a decision taken through the owner's link to the audit log, with the client address it came from. */
  audit?(event: 'comment_approved' | 'comment_marked_spam', subject: string, clientAddress: string): Promise<void>;
}

export type ModerationAction = 'approve' | 'spam';

export interface CommentMail {
  /** After a comment was kept: the confirmation mail, the owner's mail, the reply mail when it is published. */
  afterPost(comment: StoredComment, notify: boolean): Promise<void>;
  /** After a comment was published (approved in /admin, by the owner's link, or replied by the site). */
  afterPublish(comment: StoredComment): Promise<void>;
  /** Whether a confirmation token is valid now (the page that shows the button). */
  isConfirmationValid(token: string): Promise<boolean>;
  confirm(token: string): Promise<'confirmed' | 'gone'>;
  /** `token`: a subscriber id (every mail) or `<id>.<comment id>` (one thread). */
  unsubscribe(token: string): Promise<'unsubscribed' | 'unknown'>;
  /** The waiting comment a moderation token names, while it is valid. */
  isModerationValid(token: string): Promise<boolean>;
  /** Takes the moderation token once and applies `action` (audited with `clientAddress`); 'gone' for a used, expired or unknown token. */
  moderate(token: string, action: ModerationAction, clientAddress: string): Promise<'approved' | 'spam' | 'gone'>;
}

export function createCommentMail(settings: CommentMailSettings, deps: CommentMailDeps): CommentMail {
  const { store, comments, logger } = deps;

  /** Runs a mail step; a failure is logged and stops nothing else. */
  const guarded = async (event: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      logger.error({ event, reason: safeReason(error) }, 'a comment mail could not be queued');
    }
  };

  const optIn = async (comment: StoredComment, address: string) => {
    const now = deps.clock();
    const { subscriber, sendConfirmation } = await store.optIn({
      address,
      commentId: comment.id,
      now,
      resendAfter: now - CONFIRM_RESEND_MS,
      newId: deps.randomBytes(16).toString('base64url'),
    });
    if (!sendConfirmation) return;
    const token = createToken(deps.randomBytes);
    const expiresAt = now + CONFIRM_TTL_MS;
    await store.addToken({ hash: hashToken(token), action: 'confirm', subscriberId: subscriber.id, expiresAt }, now);
    await deps.send('comment_confirmation', confirmationMail(settings.from, address, settings.siteName, settings.links.confirm(token), expiresAt));
  };

  const mailOwner = async (comment: StoredComment) => {
    if (settings.ownerAddress === undefined) return;
    const token = createToken(deps.randomBytes);
    const now = deps.clock();
    const expiresAt = now + MODERATION_TTL_MS;
    await store.addToken({ hash: hashToken(token), action: 'moderate', comment: { slug: comment.slug, lang: comment.lang, id: comment.id }, expiresAt }, now);
    const { links } = settings;
    await deps.send(
      'comment_owner',
      ownerMail({ from: settings.from, to: settings.ownerAddress, siteName: settings.siteName, comment, approve: links.moderate(token, 'approve'), spam: links.moderate(token, 'spam'), expiresAt }),
    );
  };

  const notifyParent = async (reply: StoredComment) => {
    if (reply.parent === null || reply.status !== 'published') return;
    const parent = (await comments.listVersion(reply)).find((comment) => comment.id === reply.parent);
    if (!parent?.email) return;
    // Nobody is told of their own reply.
    if (reply.email !== null && comparableEmailAddress(reply.email) === comparableEmailAddress(parent.email)) return;
    const subscriber = await store.subscriberByAddress(parent.email);
    if (!subscriber?.confirmed || !subscriber.watched.includes(parent.id)) return;
    await deps.send(
      'comment_reply',
      replyMail({
        from: settings.from,
        to: parent.email,
        siteName: settings.siteName,
        post: reply.slug,
        reply,
        postUrl: settings.postUrlOf(reply),
        unsubscribeThread: settings.links.unsubscribe(`${subscriber.id}.${parent.id}`),
        unsubscribeAll: settings.links.unsubscribe(subscriber.id),
        listId: settings.listId,
      }),
    );
  };

  const validToken = async (token: string, action: 'confirm' | 'moderate') => {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const found = await store.findToken(hashToken(token), deps.clock());
    return found?.action === action ? found : undefined;
  };

  return {
    async afterPost(comment, notify) {
      // A comment taken for spam gets no mail of any kind: the spam rules are what keeps this from being a relay.
      if (comment.status === 'spam') return;
      if (notify && comment.email !== null) await guarded('comment_confirmation_failed', () => optIn(comment, comment.email!));
      if (comment.status === 'waiting') await guarded('comment_owner_mail_failed', () => mailOwner(comment));
      else await guarded('comment_reply_mail_failed', () => notifyParent(comment));
    },
    afterPublish: (comment) => guarded('comment_reply_mail_failed', () => notifyParent(comment)),
    isConfirmationValid: async (token) => (await validToken(token, 'confirm')) !== undefined,
    async confirm(token) {
      if (!(await validToken(token, 'confirm'))) return 'gone';
      const taken = await store.takeToken(hashToken(token), deps.clock());
      if (taken?.action !== 'confirm') return 'gone';
      return (await store.confirm(taken.subscriberId)) ? 'confirmed' : 'gone';
    },
    async unsubscribe(token) {
      const match = /^([A-Za-z0-9_-]{22})(?:\.([0-9a-z]{1,40}))?$/.exec(token);
      if (!match) return 'unknown';
      return (await store.unsubscribe(match[1]!, match[2] ?? null)) ? 'unsubscribed' : 'unknown';
    },
    isModerationValid: async (token) => (await validToken(token, 'moderate')) !== undefined,
    async moderate(token, action, clientAddress) {
      if (!(await validToken(token, 'moderate'))) return 'gone';
      const taken = await store.takeToken(hashToken(token), deps.clock());
      if (taken?.action !== 'moderate') return 'gone';
      const changed = await comments.setStatus(taken.comment, taken.comment.id, action === 'approve' ? 'published' : 'spam');
      if (!changed) return 'gone';
      await deps.audit?.(action === 'approve' ? 'comment_approved' : 'comment_marked_spam', `${changed.slug} (${changed.lang}) comment ${changed.id}`, clientAddress);
      if (action === 'spam') return 'spam';
      if (changed.email !== null) await comments.addApprovedAddress(changed.email);
      await guarded('comment_reply_mail_failed', () => notifyParent(changed));
      return 'approved';
    },
  };
}
