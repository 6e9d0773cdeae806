// /admin/comments (docs/comments.md "Moderating in /admin"): the comments that wait, those published and those
// taken for spam, with Approve, Mark spam and Delete. Owners and editors see every post's comments, an author those
// of their own posts (the rule of the posts pages, admin/posts/post-access.ts). Each decision goes to the audit log.
//
//   GET  /admin/comments[?post=<slug>]   the three lists, of every post or of one
//   POST /admin/comments   `action` approve | spam | delete of the comment `slug`, `lang`, `id` (behind the admin's
//                          CSRF check); delete asks first (views/confirm-page.tsx); 303 back with a notice
import type { CommentedVersion, CommentStore, StoredComment } from '../../comments/comment-store.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { AuditEvent } from '../accounts/account.js';
import { EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRoute, AdminSession } from '../admin-pages.js';
import { mayChangePost } from '../posts/post-access.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { CommentsOffPage, CommentsPage, commentsNoticeOf, type CommentsNotice } from './comments-views.js';

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
}

const AUDIT_EVENTS = { approve: 'comment_approved', spam: 'comment_marked_spam', delete: 'comment_deleted' } as const;

export function createCommentsPages(deps: CommentsPagesDeps): AdminRoute[] {
  const { store } = deps;
  const mayModerate = (session: AdminSession, version: CommentedVersion) => mayChangePost(session, { author: deps.authorOf(version) ?? undefined });

  const show: AdminPage = async (request, session) => {
    if (!store) return htmlAnswer(200, <CommentsOffPage session={session} />);
    const query = new URLSearchParams(request.query);
    const post = query.get('post') || undefined;
    const shown = (await store.listAll()).filter((comment) => (post === undefined || comment.slug === post) && mayModerate(session, comment));
    return htmlAnswer(200, <CommentsPage session={session} comments={shown} post={post} notice={commentsNoticeOf(query.get('notice'))} />);
  };

  const decide: AdminPage = async (request, session) => {
    if (!store) return redirectAnswer(COMMENTS_PATH);
    const fields = request.form!.fields;
    const action = fields.get('action');
    const version = { slug: fields.get('slug') ?? '', lang: fields.get('lang') ?? '' };
    const id = fields.get('id') ?? '';
    const back = (notice: CommentsNotice) => redirectAnswer(`${COMMENTS_PATH}?notice=${notice}`);
    if ((action !== 'approve' && action !== 'spam' && action !== 'delete') || !COMMENT_ID.test(id)) return back('gone');
    const comment = (await store.listVersion(version)).find((candidate) => candidate.id === id);
    // A comment this person may not moderate is answered as one that is gone: its post is not named to them.
    if (!comment || !mayModerate(session, comment)) return back('gone');
    if (action === 'delete' && !isConfirmed(fields)) return confirmDelete(session, comment);
    if (action === 'delete') await store.remove(version, id);
    else {
      const changed = await store.setStatus(version, id, action === 'approve' ? 'published' : 'spam');
      // moderation = "first": the address of an approved comment is trusted from now on.
      if (action === 'approve' && comment.email !== null) await store.addApprovedAddress(comment.email);
      if (action === 'approve' && changed && comment.status !== 'published') await deps.afterPublish?.(changed);
    }
    await deps.audit(request, { user: session.user, event: AUDIT_EVENTS[action], subject: `${comment.slug} (${comment.lang}) comment ${comment.id}` });
    return back(action === 'approve' ? 'approved' : action === 'spam' ? 'spam' : 'deleted');
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
