// The posts pages of /admin (docs/admin.md "Posts"; docs/blog.md "Images beside a post"). Each handler reads
// the request, calls the post files (src/admin/posts/post-files.ts) and turns the outcome into a page or a 303;
// sign-in, origin and CSRF checks and the security headers are the guard's (admin-pages.ts). Every role opens
// them; what a person may change is decided by one rule, mayChangePost (posts/post-access.ts): the list shows only
// those posts, and every handler acts through the post files for that person, which apply the rule to the file
// on disk (403, nothing changed, for another's post). Every change is logged as {"event":"admin_post_<action>","user","file"}.
import type { Answer } from '../../http/answer.js';
import type { Logger } from '../../kit/log.js';
import { EDITORS, EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRequest, AdminRoute } from '../admin-pages.js';
import { fieldsFor, mayChangeAuthor, mayChangePost } from '../posts/post-access.js';
import type { PostFiles } from '../posts/post-files.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { MessagePage } from '../views/message-page.js';
import { ConflictPage } from './conflict-page.js';
import { fieldsOfForm } from './form-fields.js';
import { PostEditorPage, type EditorProps } from './post-editor-page.js';
import { PostListPage, type NewsletterSending } from './post-list-page.js';
import type { ListVersions } from './post-listing.js';

export interface PostPagesDeps {
  posts: PostFiles;
  listVersions: ListVersions;
  /** The post's HTML as the blog API renders it, for "Preview" (`file` is undefined for a new post). */
  renderPreview(body: string, file: string | undefined): string | Promise<string>;
  maxUploadBytes: number;
  /** Whether the list offers "Send to subscribers" (src/admin/campaign-pages/send-pages.tsx). */
  sending?: NewsletterSending;
  logger: Logger;
}

/** What a `notice` in the query may say: fixed texts, so no query text is ever shown as a message. */
const NOTICES: Record<string, string> = {
  created: 'The post was created as a draft file. Publish it when it is ready.',
  saved: 'Saved. The blog serves the change within two seconds.',
  unchanged: 'Nothing had changed; nothing was written.',
  published: 'Published: the post is in the API and the feeds (at its date, if that is in the future).',
  unpublished: 'Unpublished: the post is a draft again.',
  translation: 'The translation was created as a draft copy. Translate it, then publish it.',
  image: 'The image was stored beside the post. Add it to the text where it belongs:',
  deleted: 'The post was moved to the trash folder (data_dir/trash), where it can be restored by hand.',
};

export function createPostPages(deps: PostPagesDeps): AdminRoute[] {
  const { posts, logger } = deps;
  const log = (action: string, session: AdminSession, file: string) =>
    logger.info({ event: `admin_post_${action}`, user: session.user, file }, `admin: post ${action}`);
  const queryOf = (request: AdminRequest) => new URLSearchParams(request.query);
  const formOf = (request: AdminRequest) => request.form?.fields ?? new URLSearchParams();
  const editPath = (file: string, notice?: string, extra: Record<string, string> = {}) =>
    `/admin/posts/edit?${new URLSearchParams({ file, ...(notice ? { notice } : {}), ...extra }).toString()}`;
  const message = (status: number, session: AdminSession, title: string, text: string, link = { href: '/admin/posts', label: 'Back to the posts' }): Answer =>
    htmlAnswer(status, <MessagePage title={title} message={text} session={session} link={link} />);
  const notFound = (session: AdminSession) => message(404, session, 'No such post', 'There is no post file by that name in the content folder.');
  const forbidden = (session: AdminSession) => message(403, session, 'Not your post', 'Your role changes only your own posts: those that carry your name as their author. Nothing was changed.');
  /** The post files as `session`'s person may change them: another's post is `forbidden`, judged on disk. */
  const postsOf = (session: AdminSession): PostFiles => posts.withAccess((post) => mayChangePost(session, post));
  /** The form's fields as they are written for `session`: an author's own name as the author. */
  const submittedFields = (request: AdminRequest, session: AdminSession) => {
    const { fields, body } = fieldsOfForm(formOf(request));
    return { fields: fieldsFor(session, fields), body };
  };
  const editor = (session: AdminSession, props: Omit<EditorProps, 'session' | 'authorLocked'>) => (
    <PostEditorPage session={session} authorLocked={!mayChangeAuthor(session)} {...props} />
  );

  const list: AdminPage = async (request, session) => {
    const notice = NOTICES[queryOf(request).get('notice') ?? ''];
    const versions = (await deps.listVersions()).filter((version) => mayChangePost(session, version));
    // Campaigns are the owners' and editors' (app/admin-pages.ts opens the send pages to them alone).
    const sending = EDITORS.includes(session.role) ? deps.sending : undefined;
    return htmlAnswer(200, <PostListPage session={session} versions={versions} notice={notice} sending={sending} />);
  };

  // A new post starts as a draft: "Create" writes the file, "Publish" puts it online.
  const newForm: AdminPage = (_request, session) => htmlAnswer(200, editor(session, { fields: fieldsFor(session, { ...posts.newPostFields(), draft: true }), body: '' }));

  const create: AdminPage = async (request, session) => {
    const { fields, body } = submittedFields(request, session);
    const outcome = await postsOf(session).create(fields, body);
    if (outcome.ok) {
      log('created', session, outcome.file);
      return redirectAnswer(editPath(outcome.file, 'created'));
    }
    if (outcome.kind === 'forbidden') return forbidden(session);
    const problems =
      outcome.kind === 'invalid'
        ? outcome.problems
        : [{ field: 'slug' as const, message: outcome.kind === 'exists' ? `a post named ${outcome.file} exists already` : outcome.kind === 'not_found' ? 'not found' : outcome.reason }];
    return htmlAnswer(422, editor(session, { fields, body, problems }));
  };

  const edit: AdminPage = async (request, session) => {
    const query = queryOf(request);
    const outcome = await postsOf(session).read(query.get('file') ?? '');
    if (!outcome.ok) {
      if (outcome.kind === 'forbidden') return forbidden(session);
      return outcome.kind === 'unreadable' ? message(422, session, 'The post cannot be read', outcome.reason) : notFound(session);
    }
    const { post } = outcome;
    const noticeKey = query.get('notice') ?? '';
    // Only a name the upload could have given (image-name.ts) is shown: no other query text reaches the page.
    const image = noticeKey === 'image' ? query.get('image') : null;
    const shownImage = image !== null && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(image) ? image : null;
    const notice = NOTICES[noticeKey] && (shownImage ? `${NOTICES[noticeKey]} ![](${shownImage})` : NOTICES[noticeKey]);
    return htmlAnswer(200, editor(session, { file: post.file, fields: post.fields, body: post.body, version: post.version, baseText: post.text, notice }));
  };

  const save: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const version = form.get('version') ?? '';
    const baseText = form.get('base_text') ?? undefined;
    const { fields, body } = submittedFields(request, session);
    const outcome = await postsOf(session).save({ file, version, fields, body, baseText });
    if (outcome.ok) {
      if (outcome.changed) log('saved', session, outcome.file);
      return redirectAnswer(editPath(outcome.file, outcome.changed ? 'saved' : 'unchanged'));
    }
    switch (outcome.kind) {
      case 'invalid':
        return htmlAnswer(422, editor(session, { file, fields, body, version, baseText, problems: outcome.problems }));
      case 'forbidden':
        return forbidden(session);
      case 'conflict':
        return htmlAnswer(
          409,
          <ConflictPage session={session} file={file} mine={outcome.mine} theirs={outcome.theirs} theirsVersion={outcome.theirsVersion} merged={outcome.merged} fields={fields} body={body} />,
        );
      case 'unreadable':
        return message(422, session, 'The post cannot be saved', outcome.reason, { href: editPath(file), label: 'Back to the post' });
      default:
        return notFound(session);
    }
  };

  const preview: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? undefined;
    const { fields, body } = submittedFields(request, session);
    // The images beside the post are shown: only for a post the person may change, as it is on disk now.
    const opened = file === undefined ? undefined : await postsOf(session).read(file);
    if (opened && !opened.ok && opened.kind === 'forbidden') return forbidden(session);
    // A file that cannot be read names a folder of nobody's post: shown only to those who may change those.
    const imagesOf = opened === undefined || opened.ok || mayChangePost(session, {}) ? file : undefined;
    const previewHtml = await deps.renderPreview(body, imagesOf);
    return htmlAnswer(200, editor(session, { file, fields, body, version: form.get('version') ?? undefined, baseText: form.get('base_text') ?? undefined, previewHtml }));
  };

  const setDraft = (draft: boolean): AdminPage => async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const outcome = await postsOf(session).setDraft(file, draft, form.get('version') ?? undefined);
    if (outcome.ok) {
      log(draft ? 'unpublished' : 'published', session, outcome.file);
      return redirectAnswer(editPath(outcome.file, draft ? 'unpublished' : 'published'));
    }
    if (outcome.kind === 'conflict') return message(409, session, 'The post changed meanwhile', 'The file changed on disk after you opened it; nothing was changed. Open it again.', { href: editPath(file), label: 'Open the post again' });
    if (outcome.kind === 'invalid') return message(422, session, 'The post cannot be published', outcome.problems.map((problem) => problem.message).join('; '), { href: editPath(file), label: 'Back to the post' });
    if (outcome.kind === 'unreadable') return message(422, session, 'The post cannot be changed', outcome.reason);
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const translate: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const outcome = await postsOf(session).addTranslation(file, (form.get('language') ?? '').trim());
    if (outcome.ok) {
      log('translation_added', session, outcome.file);
      return redirectAnswer(editPath(outcome.file, 'translation'));
    }
    const back = { href: editPath(file), label: 'Back to the post' };
    if (outcome.kind === 'invalid') return message(422, session, 'No translation added', outcome.problems.map((problem) => problem.message).join('; '), back);
    if (outcome.kind === 'exists') return message(409, session, 'No translation added', `That translation exists already: ${outcome.file}.`, { href: editPath(outcome.file), label: 'Open it' });
    if (outcome.kind === 'unreadable' || outcome.kind === 'refused') return message(422, session, 'No translation added', outcome.reason, back);
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const remove: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const outcome = await postsOf(session).remove(file, form.get('version') ?? undefined);
    if (outcome.ok) {
      log('deleted', session, file);
      return redirectAnswer('/admin/posts?notice=deleted');
    }
    if (outcome.kind === 'conflict') return message(409, session, 'The post changed meanwhile', 'The file changed on disk after you opened it; it was not deleted. Open it again.', { href: editPath(file), label: 'Open the post again' });
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const upload: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const image = request.form?.files.find((entry) => entry.field === 'image' && entry.data.length > 0);
    const back = { href: editPath(file), label: 'Back to the post' };
    if (!image) return message(422, session, 'No image uploaded', 'Choose an image file first.', back);
    const outcome = await postsOf(session).storeImage(file, image.fileName, image.data, deps.maxUploadBytes);
    if (outcome.ok) {
      log('image_uploaded', session, outcome.postFile);
      return redirectAnswer(editPath(outcome.postFile, 'image', { image: outcome.fileName }));
    }
    switch (outcome.kind) {
      case 'too_large':
        return message(413, session, 'The image is too large', `Images may be at most ${outcome.maxBytes} bytes.`, back);
      case 'not_an_image':
        return message(415, session, 'Not an image', 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded (recognized by their content, not their name).', back);
      case 'folder_taken':
        return message(409, session, 'The image cannot be stored', `The folder ${outcome.folder} is taken by something else.`, back);
      case 'refused':
        return message(422, session, 'The image cannot be stored', outcome.reason, back);
      case 'forbidden':
        return forbidden(session);
      default:
        return notFound(session);
    }
  };

  // Open to every role: what each person may change is the rule above (the guard still checks sign-in and CSRF).
  const routes: AdminRoute[] = [
    { path: '/admin/posts', methods: { GET: list } },
    { path: '/admin/posts/new', methods: { GET: newForm, POST: create } },
    { path: '/admin/posts/edit', methods: { GET: edit } },
    { path: '/admin/posts/save', methods: { POST: save } },
    { path: '/admin/posts/preview', methods: { POST: preview } },
    { path: '/admin/posts/publish', methods: { POST: setDraft(false) } },
    { path: '/admin/posts/unpublish', methods: { POST: setDraft(true) } },
    { path: '/admin/posts/translate', methods: { POST: translate } },
    { path: '/admin/posts/delete', methods: { POST: remove } },
    { path: '/admin/posts/upload', methods: { POST: upload } },
  ];
  return routes.map((route) => ({ ...route, roles: EVERY_ROLE }));
}
