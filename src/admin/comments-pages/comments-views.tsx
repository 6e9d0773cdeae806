// The page of /admin/comments (docs/comments.md "Moderating in /admin"): one table per status, each comment with its
// post, when it came, who wrote it and what, as text (preact escapes it; the Markdown source is shown, not its
// HTML). The commenter's address is never shown: it is kept for moderation only.
import type { CommentStatus, StoredComment } from '../../comments/comment-store.js';
import { TEXT_MAX } from '../../comments/comment-fields.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';

const NOTICES = {
  approved: 'Approved: the comment is published.',
  spam: 'Marked as spam: the comment is hidden.',
  deleted: 'Deleted.',
  replied: 'Replied: the reply is published.',
  edited: 'Saved: the comment shows the new text.',
  gone: 'That comment is no longer there.',
} as const;

export type CommentsNotice = keyof typeof NOTICES;

/** The notice `key` names, or undefined. */
export function commentsNoticeOf(key: string | null): CommentsNotice | undefined {
  return key !== null && Object.hasOwn(NOTICES, key) ? (key as CommentsNotice) : undefined;
}

const SECTIONS: ReadonlyArray<{ status: CommentStatus; heading: string; empty: string }> = [
  { status: 'waiting', heading: 'Waiting for approval', empty: 'No comment waits.' },
  { status: 'published', heading: 'Published', empty: 'No comment is published.' },
  { status: 'spam', heading: 'Spam', empty: 'No comment was taken for spam.' },
];

export interface CommentsPageProps {
  session: AdminSession;
  comments: readonly StoredComment[];
  /** The post whose comments alone are listed, or undefined for every post. */
  post?: string;
  notice?: CommentsNotice;
  /** Whether Reply and Edit are offered. */
  writing?: boolean;
}

export function CommentsPage({ session, comments, post, notice, writing = false }: CommentsPageProps) {
  const title = post === undefined ? 'Comments' : `Comments on ${post}`;
  return (
    <Layout title={title} session={session} section="comments">
      <h1>{title}</h1>
      {post !== undefined && (
        <p class="admin-actions">
          <a href="/admin/comments">The comments of every post</a>
        </p>
      )}
      {notice && (
        <p role="status" class="admin-notice">
          {NOTICES[notice]}
        </p>
      )}
      {SECTIONS.map(({ status, heading, empty }) => {
        const shown = comments.filter((comment) => comment.status === status);
        return (
          <section key={status} aria-labelledby={`comments-${status}`}>
            <h2 id={`comments-${status}`}>
              {heading} ({shown.length})
            </h2>
            {shown.length === 0 ? (
              <p>{empty}</p>
            ) : (
              <AdminTable caption={`${heading}, oldest first`} headings={['Post', 'Received', 'Name', 'Comment', <span class="admin-visually-hidden">Actions</span>]}>
                {shown.map((comment) => (
                  <CommentRow key={comment.id} session={session} comment={comment} writing={writing} />
                ))}
              </AdminTable>
            )}
          </section>
        );
      })}
    </Layout>
  );
}

function CommentRow({ session, comment, writing }: { session: AdminSession; comment: StoredComment; writing: boolean }) {
  return (
    <tr>
      <td>
        <a href={`/admin/comments?post=${encodeURIComponent(comment.slug)}`}>{comment.slug}</a> ({comment.lang})
      </td>
      <td>
        <Time at={comment.createdAt} zone={session.timeZone} />
      </td>
      <td>
        {comment.author.name}
        {comment.byUser !== undefined && ` (the site's, by ${comment.byUser})`}
        {comment.author.url !== null && (
          <>
            <br />
            {comment.author.url}
          </>
        )}
      </td>
      <td class="admin-message">{comment.text}</td>
      <td>
        <form method="post" action="/admin/comments" class="admin-inline-form">
          <CsrfField session={session} />
          <input type="hidden" name="slug" value={comment.slug} />
          <input type="hidden" name="lang" value={comment.lang} />
          <input type="hidden" name="id" value={comment.id} />
          {comment.status !== 'published' && (
            <button type="submit" name="action" value="approve">
              Approve<span class="admin-visually-hidden"> the comment of {comment.author.name}</span>
            </button>
          )}
          {writing && comment.status === 'published' && (
            <button type="submit" name="action" value="reply">
              Reply<span class="admin-visually-hidden"> to the comment of {comment.author.name}</span>
            </button>
          )}
          {writing && (
            <button type="submit" name="action" value="edit">
              Edit<span class="admin-visually-hidden"> the comment of {comment.author.name}</span>
            </button>
          )}
          {comment.status !== 'spam' && (
            <button type="submit" name="action" value="spam">
              Mark spam<span class="admin-visually-hidden"> the comment of {comment.author.name}</span>
            </button>
          )}
          <button type="submit" name="action" value="delete">
            Delete<span class="admin-visually-hidden"> the comment of {comment.author.name}</span>
          </button>
        </form>
      </td>
    </tr>
  );
}

export function CommentsOffPage({ session }: { session: AdminSession }) {
  return (
    <Layout title="Comments" session={session} section="comments">
      <h1>Comments</h1>
      <p>
        Comments are off. <code>[blog.comments] enabled = true</code> in the configuration turns them on (docs/comments.md).
      </p>
    </Layout>
  );
}

export interface CommentTextPageProps {
  session: AdminSession;
  comment: StoredComment;
  action: 'reply' | 'edit';
  /** What the field holds: the comment's text to edit, or what was typed. */
  text: string;
  /** The text sent was empty or too long. */
  invalid: boolean;
}

/** The text field of Reply (a reply of the site, published at once) and of Edit. */
export function CommentTextPage({ session, comment, action, text, invalid }: CommentTextPageProps) {
  const title = action === 'reply' ? `Reply to the comment of ${comment.author.name}` : `Edit the comment of ${comment.author.name}`;
  return (
    <Layout title={title} session={session} section="comments">
      <h1>{title}</h1>
      {action === 'reply' && (
        <blockquote class="admin-message">{comment.text}</blockquote>
      )}
      {invalid && (
        <p role="alert" class="admin-problem">
          {`The text must hold 1 to ${TEXT_MAX} characters.`}
        </p>
      )}
      <form method="post" action="/admin/comments">
        <CsrfField session={session} />
        <input type="hidden" name="action" value={action} />
        <input type="hidden" name="slug" value={comment.slug} />
        <input type="hidden" name="lang" value={comment.lang} />
        <input type="hidden" name="id" value={comment.id} />
        <p>
          <label for="comment-text">{action === 'reply' ? 'Your reply (Markdown), shown as the site\'s' : 'The text (Markdown)'}</label>
          <br />
          <textarea id="comment-text" name="text" rows={8} cols={60} required maxLength={TEXT_MAX}>
            {text}
          </textarea>
        </p>
        <p class="admin-actions">
          <button type="submit">{action === 'reply' ? 'Publish the reply' : 'Save'}</button>
          <a href="/admin/comments">Cancel</a>
        </p>
      </form>
    </Layout>
  );
}
