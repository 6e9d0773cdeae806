// The mails of comments (docs/comments.md "Reply notifications", "The owner's mail"): fixed text, the links of
// comment-mail-links, and of the comments only what a reader of the post sees anyway (names and text). The
// commenter's address is a recipient, never a part of the text.
import type { MailMessage } from '../ports.js';
import type { StoredComment } from './comment-store.js';

/** "2026-11-30 12:00 UTC". */
function utcMinuteOf(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Where the pages of the links are: the blog's public_url. */
export interface CommentLinks {
  confirm(token: string): string;
  unsubscribe(token: string): string;
  moderate(token: string, action: 'approve' | 'spam'): string;
}

/** The links on `publicUrl` (the blog's), beside the comment API. */
export function commentLinksOf(publicUrl: string): CommentLinks {
  const base = `${publicUrl.replace(/\/+$/, '')}/api/blog/comments`;
  return {
    confirm: (token) => `${base}/confirm?token=${encodeURIComponent(token)}`,
    unsubscribe: (token) => `${base}/unsubscribe?token=${encodeURIComponent(token)}`,
    moderate: (token, action) => `${base}/moderate?token=${encodeURIComponent(token)}&action=${action}`,
  };
}

/** The mail that asks an address to confirm that it wants mail about replies. */
export function confirmationMail(from: string, to: string, siteName: string, link: string, expiresAt: number): MailMessage {
  return {
    from,
    to,
    subject: `Confirm reply notifications from ${siteName}`,
    text: [
      `Someone, probably you, commented on ${siteName} and asked to be told of replies by mail.`,
      '',
      'To confirm, open this link and press the button:',
      '',
      link,
      '',
      `The link works once, until ${utcMinuteOf(expiresAt)}.`,
      '',
      'If you did not ask for this, ignore this mail: without a confirmation nothing more is sent to you.',
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
  };
}

export interface ReplyMailFacts {
  from: string;
  to: string;
  siteName: string;
  /** The reply's post title or slug. */
  post: string;
  reply: Pick<StoredComment, 'author' | 'text'>;
  /** Where the reply is read: the post's page, or empty when unknown. */
  postUrl: string;
  unsubscribeThread: string;
  unsubscribeAll: string;
  /** The List-Id (RFC 2919) of the site's reply notifications. */
  listId: string;
}

/** The mail about a published reply, with the one-click unsubscribe of the thread in its headers (RFC 8058). */
export function replyMail(facts: ReplyMailFacts): MailMessage {
  return {
    from: facts.from,
    to: facts.to,
    subject: `${facts.reply.author.name} replied to your comment on ${facts.siteName}`,
    text: [
      `${facts.reply.author.name} replied to your comment on "${facts.post}":`,
      '',
      ...facts.reply.text.split('\n').map((line) => `> ${line}`),
      '',
      ...(facts.postUrl === '' ? [] : ['Read it there:', facts.postUrl, '']),
      'No more mail about replies to this comment:',
      facts.unsubscribeThread,
      '',
      `No more mail about replies from ${facts.siteName} at all:`,
      facts.unsubscribeAll,
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
    list: { id: facts.listId, unsubscribeUrl: facts.unsubscribeThread },
  };
}

export interface OwnerMailFacts {
  from: string;
  to: string;
  siteName: string;
  comment: Pick<StoredComment, 'author' | 'text' | 'slug' | 'lang'>;
  approve: string;
  spam: string;
  expiresAt: number;
}

/** The owner's mail about a comment that waits, with its scanner-safe Approve and Spam links. */
export function ownerMail(facts: OwnerMailFacts): MailMessage {
  const { comment } = facts;
  return {
    from: facts.from,
    to: facts.to,
    subject: `A comment waits on ${facts.siteName}: ${comment.slug}`,
    text: [
      `${comment.author.name} commented on ${comment.slug} (${comment.lang}); the comment waits for approval.`,
      ...(comment.author.url === null ? [] : [`Web site: ${comment.author.url}`]),
      '',
      ...comment.text.split('\n').map((line) => `> ${line}`),
      '',
      'Approve it:',
      facts.approve,
      '',
      'Mark it as spam:',
      facts.spam,
      '',
      `Each link opens a page with a button. The links work once, until ${utcMinuteOf(facts.expiresAt)}; /admin/comments works always.`,
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
  };
}
