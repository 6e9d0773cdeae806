// The History of a post in /admin (docs/admin.md "Posts in git"), linked from the editor:
//
//   GET  /admin/posts/history?file=F                the versions of F: time, author, what was done
//   GET  /admin/posts/history/version?file=F&id=C   version C: its text, what changed since, "Restore this version"
//   POST /admin/posts/history/restore               file, id, version (the file's token now): C written as F
//
// Who may open a post's history is who may change the post (posts/post-access.ts, on the file as it is now), and
// only a version in F's own history can be shown or restored: an id from elsewhere is 404. A restore writes the
// version's whole text through the post files (the checks of a save, the one write queue) and is recorded as a
// new change, "Restore <file> to <short id>"; a file changed since the page was opened is not overwritten.
import type { Answer } from '../../http/answer.js';
import type { Logger } from '../../kit/log.js';
import { EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRequest, AdminRoute } from '../admin-pages.js';
import { mayChangePost } from '../posts/post-access.js';
import { mayWriteRawHtml } from '../posts/raw-html.js';
import type { PostFiles } from '../posts/post-files.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { MessagePage } from '../views/message-page.js';
import { HISTORY_CSS, HISTORY_CSS_PATH, HistoryListPage, historyPath, VersionPage } from './history-views.js';
import { lineDiff } from './line-diff.js';
import type { HistoryEntry, PostHistory } from './post-history.js';

/** The versions a history page lists (and among which a version is looked up). */
export const HISTORY_LIMIT = 200;

export interface HistoryPagesDeps {
  /** The posts pages' post files: a restore takes its turn with every other write. */
  posts: PostFiles;
  history: PostHistory;
  logger: Logger;
}

const editPath = (file: string, notice?: string) => `/admin/posts/edit?${new URLSearchParams({ file, ...(notice ? { notice } : {}) }).toString()}`;

export function createHistoryPages(deps: HistoryPagesDeps): AdminRoute[] {
  const { posts, history, logger } = deps;
  const postsOf = (session: AdminSession): PostFiles => posts.withAccess((post) => mayChangePost(session, post), { rawHtml: mayWriteRawHtml(session) }).by(session.user);
  const message = (status: number, session: AdminSession, title: string, text: string, link = { href: '/admin/posts', label: 'Back to the posts' }): Answer =>
    htmlAnswer(status, <MessagePage title={title} message={text} session={session} link={link} />);
  const notFound = (session: AdminSession) => message(404, session, 'No such post', 'There is no post file by that name in the content folder.');
  const noVersion = (session: AdminSession, file: string) =>
    message(404, session, 'No such version', 'This post has no recorded version by that id.', { href: historyPath(file), label: 'Back to the history' });
  const forbidden = (session: AdminSession) => message(403, session, 'Not your post', 'Your role changes only your own posts: those that carry your name as their author. Nothing was changed.');

  /** The post `file` as the person may open it now, or the answer that refuses it. */
  const opened = async (session: AdminSession, file: string) => {
    const outcome = await postsOf(session).read(file);
    if (outcome.ok) return { ok: true as const, post: outcome.post };
    if (outcome.kind === 'forbidden') return { ok: false as const, answer: forbidden(session) };
    if (outcome.kind === 'unreadable') return { ok: false as const, answer: message(422, session, 'The post cannot be read', outcome.reason) };
    return { ok: false as const, answer: notFound(session) };
  };
  /** The version `id` of `file`'s own history, if it is one. */
  const entryOf = async (file: string, id: string): Promise<HistoryEntry | undefined> => {
    if (!/^[0-9a-f]{40,64}$/.test(id)) return undefined;
    return (await history.entries(file, HISTORY_LIMIT)).find((entry) => entry.id === id);
  };

  const list: AdminPage = async (request, session) => {
    const file = new URLSearchParams(request.query).get('file') ?? '';
    const found = await opened(session, file);
    if (!found.ok) return found.answer;
    const entries = await history.entries(found.post.file, HISTORY_LIMIT);
    return htmlAnswer(200, <HistoryListPage session={session} file={found.post.file} title={found.post.fields.title} entries={entries} limit={HISTORY_LIMIT} />);
  };

  const version: AdminPage = async (request, session) => {
    const query = new URLSearchParams(request.query);
    const found = await opened(session, query.get('file') ?? '');
    if (!found.ok) return found.answer;
    const { post } = found;
    const entry = await entryOf(post.file, query.get('id') ?? '');
    if (!entry) return noVersion(session, post.file);
    const text = await history.textAt(entry.id, entry.file);
    const diff = text === undefined ? [] : lineDiff(text, post.text);
    return htmlAnswer(200, <VersionPage session={session} file={post.file} entry={entry} text={text} diff={diff} currentVersion={post.version} />);
  };

  const restore: AdminPage = async (request: AdminRequest, session) => {
    const form = request.form?.fields ?? new URLSearchParams();
    const file = form.get('file') ?? '';
    const found = await opened(session, file);
    if (!found.ok) return found.answer;
    const entry = await entryOf(found.post.file, form.get('id') ?? '');
    if (!entry) return noVersion(session, found.post.file);
    const back = { href: historyPath(found.post.file, entry.id), label: 'Back to this version' };
    const text = await history.textAt(entry.id, entry.file);
    if (text === undefined) return message(422, session, 'Nothing to restore', 'This version has no file: the change deleted it.', back);
    const outcome = await postsOf(session).restore(found.post.file, form.get('version') ?? '', text, entry.shortId);
    if (outcome.ok) {
      if (outcome.changed) logger.info({ event: 'admin_post_restored', user: session.user, file: outcome.file, version: entry.id }, 'admin: post restored');
      return redirectAnswer(editPath(outcome.file, outcome.changed ? 'restored' : 'unchanged'));
    }
    switch (outcome.kind) {
      case 'conflict':
        return message(409, session, 'The post changed meanwhile', 'The post changed after you opened this version (here or on another replica); nothing was restored. Look at the version again.', back);
      case 'invalid':
        return message(422, session, 'The version cannot be restored', outcome.problems.map((problem) => problem.message).join('; '), back);
      case 'unreadable':
        return message(422, session, 'The version cannot be restored', outcome.reason, back);
      case 'forbidden':
        return forbidden(session);
      default:
        return notFound(session);
    }
  };

  const routes: AdminRoute[] = [
    { path: '/admin/posts/history', methods: { GET: list } },
    { path: '/admin/posts/history/version', methods: { GET: version } },
    { path: '/admin/posts/history/restore', methods: { POST: restore } },
    { path: HISTORY_CSS_PATH, methods: { GET: () => ({ status: 200, headers: { 'content-type': 'text/css; charset=utf-8' }, body: HISTORY_CSS }) } },
  ];
  return routes.map((route) => ({ ...route, roles: EVERY_ROLE }));
}
