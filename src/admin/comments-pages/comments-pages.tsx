// /admin/comments (docs/comments.md "Moderating in /admin"): the comments that wait, those published and those
// taken for spam, with Approve, Reply, Edit, Mark spam and Delete. Owners and editors see every post's comments, an author those
// of their own posts (the rule of the posts pages, admin/posts/post-access.ts). Each decision goes to the audit log.
//
//   GET  /admin/comments[?post=<slug>]   the three lists, of every post or of one
//   POST /admin/comments   `action` approve | spam | delete | reply | edit of the comment `slug`, `lang`, `id`
//                          (behind the admin's CSRF check); delete asks first (views/confirm-page.tsx); reply and
//                          edit without `text` answer the page with the text field; 303 back with a notice
//
// A reply is the site's: its author is the site's name and address, it is published at once, and the signed-in
// user who wrote it is kept (shown here only). An edit renders the new text as a visitor's comment is rendered.
import type { CommentedVersion, CommentStore, StoredComment } from '../../comments/comment-store.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { AuditEvent } from '../accounts/account.js';
import { EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRoute, AdminSession } from '../admin-pages.js';
import { mayChangePost } from '../posts/post-access.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { CommentsOffPage, CommentsPage, CommentTextPage, commentsNoticeOf, type CommentsNotice } from './comments-views.js';
import { TEXT_MAX } from '../../comments/comment-fields.js';
import type { Clock } from '../../ports.js';

export const COMMENTS_PATH = '/admin/comments';

/** An id as the comment routes make them; anything else is no comment. */
const COMMENT_ID = /^[0-9a-z]{1,40}$/;

export interface CommentsPagesDeps {
  /** Undefined when `[blog.comments]` is off: the page says so. */
  store: CommentStore | undefined;
  /** The front matter `author` of a post version: an author moderates the comments of their own posts only. */
  authorOf(version: CommentedVersion): string | null;
  /** Appends an event to the audit log, with the network of `request`. */
  audit(request: RoutedRequest, event: Omit<AuditEvent, 'at' | 'network'>): Promise<void>;
  /** After a comment is approved: the reply notification of its parent's author (comments/comment-mail.ts). */
  afterPublish?(comment: StoredComment): Promise<void>;
  /** Reply and Edit; without it, the page offers neither. */
  writing?: CommentWriting;
}

/** What Reply and Edit need. */
export interface CommentWriting {
  /** A comment's Markdown as HTML (comments/render-comment.ts). */
  render(text: string): string;
  /** A new comment id, as the comment routes make them. */
  createId(): string;
  clock: Clock;
  /** The author a reply of the site shows: the site's title and address. */
  siteAuthor: { name: string; url: string | null };
}

const AUDIT_EVENTS = {
  approve: 'comment_approved',
  spam: 'comment_marked_spam',
  delete: 'comment_deleted',
  reply: 'comment_replied',
  edit: 'comment_edited',
} as const;

type Action = keyof typeof AUDIT_EVENTS;

const isAction = (value: string | null | undefined): value is Action => value !== null && value !== undefined && Object.hasOwn(AUDIT_EVENTS, value);

const NOTICE_OF: Record<Action, CommentsNotice> = { approve: 'approved', spam: 'spam', delete: 'deleted', reply: 'replied', edit: 'edited' };

/** Characters as a person counts them (code points). */
function lengthOf(text: string): number {
  return [...text].length;
}

export function createCommentsPages(deps: CommentsPagesDeps): AdminRoute[] {
  const { store } = deps;
  const mayModerate = (session: AdminSession, version: CommentedVersion) => mayChangePost(session, { author: deps.authorOf(version) ?? undefined });

  const show: AdminPage = async (request, session) => {
    if (!store) return htmlAnswer(200, <CommentsOffPage session={session} />);
    const query = new URLSearchParams(request.query);
    const post = query.get('post') || undefined;
    const shown = (await store.listAll()).filter((comment) => (post === undefined || comment.slug === post) && mayModerate(session, comment));
    return htmlAnswer(200, <CommentsPage session={session} comments={shown} post={post} notice={commentsNoticeOf(query.get('notice'))} writing={deps.writing !== undefined} />);
  };

  const decide: AdminPage = async (request, session) => {
    if (!store) return redirectAnswer(COMMENTS_PATH);
    const fields = request.form!.fields;
    const action = fields.get('action');
    const version = { slug: fields.get('slug') ?? '', lang: fields.get('lang') ?? '' };
    const id = fields.get('id') ?? '';
    const back = (notice: CommentsNotice) => redirectAnswer(`${COMMENTS_PATH}?notice=${notice}`);
    if (!isAction(action) || !COMMENT_ID.test(id)) return back('gone');
    const comment = (await store.listVersion(version)).find((candidate) => candidate.id === id);
    // A comment this person may not moderate is answered as one that is gone: its post is not named to them.
    if (!comment || !mayModerate(session, comment)) return back('gone');
    if (action === 'delete' && !isConfirmed(fields)) return confirmDelete(session, comment);
    const text = fields.get('text')?.trim();
    const { writing } = deps;
    if (action === 'reply' || action === 'edit') {
      if (!writing || (action === 'reply' && comment.status !== 'published')) return back('gone');
      if (!text || lengthOf(text) > TEXT_MAX) return htmlAnswer(text === undefined ? 200 : 400, <CommentTextPage session={session} comment={comment} action={action} text={text ?? (action === 'edit' ? comment.text : '')} invalid={text !== undefined} />);
    }
    if (action === 'delete') await store.remove(version, id);
    else if (action === 'edit') await store.edit(version, id, text!, writing!.render(text!));
    else if (action === 'reply') {
      const reply: StoredComment = {
        id: writing!.createId(),
        slug: comment.slug,
        lang: comment.lang,
        parent: comment.id,
        author: { ...writing!.siteAuthor },
        email: null,
        text: text!,
        html: writing!.render(text!),
        createdAt: new Date(writing!.clock()).toISOString(),
        status: 'published',
        kind: 'comment',
        byUser: session.user,
      };
      await store.add(reply);
      await deps.afterPublish?.(reply);
    } else {
      const changed = await store.setStatus(version, id, action === 'approve' ? 'published' : 'spam');
      // moderation = "first": the address of an approved comment is trusted from now on.
      if (action === 'approve' && comment.email !== null) await store.addApprovedAddress(comment.email);
      if (action === 'approve' && changed && comment.status !== 'published') await deps.afterPublish?.(changed);
    }
    await deps.audit(request, { user: session.user, event: AUDIT_EVENTS[action], subject: `${comment.slug} (${comment.lang}) comment ${comment.id}` });
    return back(NOTICE_OF[action]);
  };

  return [{ path: COMMENTS_PATH, roles: EVERY_ROLE, methods: { GET: show, POST: decide } }];
}

function confirmDelete(session: AdminSession, comment: StoredComment) {
  return htmlAnswer(
    200,
    <ConfirmPage
      session={session}
      section="comments"
      title={`Delete the comment of ${comment.author.name}?`}
      action={COMMENTS_PATH}
      fields={{ action: 'delete', slug: comment.slug, lang: comment.lang, id: comment.id }}
      cancel={{ href: COMMENTS_PATH, label: 'Cancel, back to the comments' }}
      button="Delete it"
    >
      <p>The comment on {comment.slug} is deleted for good; replies to it stay, without the comment they answered.</p>
    </ConfirmPage>,
  );
}
