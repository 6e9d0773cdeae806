// The posts pages of /admin (docs/admin.md "Posts"; docs/blog.md "Images beside a post"). Each handler reads
// the request, calls the post files (src/admin/posts/post-files.ts) and turns the outcome into a page or a 303;
// sign-in, origin and CSRF checks and the security headers are the guard's (admin-pages.ts). Every role opens
// them; what a person may change is decided by one rule, mayChangePost (posts/post-access.ts): the list shows only
// those posts, and every handler acts through the post files for that person, which apply the rule to the file
// on disk (403, nothing changed, for another's post). Every change is logged as {"event":"admin_post_<action>","user","file"}.
//
// Nothing typed is lost: Publish, Unpublish, Add translation and Upload image accept the editor's whole form (the
// fields of /admin/posts/save) and save it first, through the same save (its 409 and 422 pages keep the text);
// a POST without those fields (an older page) acts on the file as it is. Deleting asks first: a delete POST
// without `confirm=yes` answers a page naming what would be deleted (views/confirm-page.tsx).
import type { Answer } from '../../http/answer.js';
import type { Logger } from '../../kit/log.js';
import { EDITORS, EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRequest, AdminRoute } from '../admin-pages.js';
import { fieldsFor, mayChangeAuthor, mayChangePost } from '../posts/post-access.js';
import { mayWriteRawHtml } from '../posts/raw-html.js';
import type { PostFields, PostFiles } from '../posts/post-files.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { MessagePage } from '../views/message-page.js';
import { CONFLICT_CSS, CONFLICT_CSS_PATH, ConflictPage } from './conflict-page.js';
import { fieldsOfForm } from './form-fields.js';
import { PostEditorPage, type EditorProps } from './post-editor-page.js';
import { PostListPage, type NewsletterSending } from './post-list-page.js';
import type { PublicPostLinks } from './post-list-query.js';
import type { ListVersions } from './post-listing.js';

export interface PostPagesDeps {
  posts: PostFiles;
  listVersions: ListVersions;
  /** The post's HTML as the blog API renders it, for "Preview" (`file` is undefined for a new post). */
  /** Sanitised as the blog does unless `rawHtml` (docs/blog.md "Raw HTML"). */
  renderPreview(body: string, file: string | undefined, rawHtml: boolean): string | Promise<string>;
  maxUploadBytes: number;
  /** Whether the list offers "Send to subscribers" (src/admin/campaign-pages/send-pages.tsx). */
  sending?: NewsletterSending;
  /** Where a published post is read on the site, for the list's "View" links. */
  links?: PublicPostLinks;
  /** Whether posts have a history (docs/admin.md "Posts in git"): the editor links to it. */
  history?: boolean;
  /** Whether images are kept in the media storage (docs/blog.md "Media in storage"), which has no trash. */
  mediaInStorage?: boolean;
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
  merged: 'Saved together with the change made on disk meanwhile (the two did not overlap). The blog serves it within two seconds.',
  restored: 'The version from the history was restored, as a new change. The blog serves it within two seconds.',
  deleted: 'The post was moved to the trash folder (data_dir/trash), where it can be restored by hand.',
  image_deleted: 'The image was moved to the trash folder (data_dir/trash), where it can be restored by hand.',
  image_removed: 'The image was deleted from the media storage.',
};

/** Whether a POST carries the editor's fields (what was typed), rather than only the file and its version. */
function carriesTypedText(form: URLSearchParams): boolean {
  return form.has('title') || form.has('body');
}

/** A save of the typed text went through (`file`, `version`: the file now), or `answer` says why not. */
type TypedSave = { ok: true; file: string; version: string; changed: boolean; merged: boolean } | { ok: false; answer: Answer };

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
  const postsOf = (session: AdminSession): PostFiles => posts.withAccess((post) => mayChangePost(session, post), { rawHtml: mayWriteRawHtml(session) }).by(session.user);
  /** The form's fields as they are written for `session`: an author's own name as the author. */
  const submittedFields = (request: AdminRequest, session: AdminSession) => {
    const { fields, body } = fieldsOfForm(formOf(request), session.timeZone);
    return { fields: fieldsFor(session, fields), body };
  };
  const editor = (session: AdminSession, props: Omit<EditorProps, 'session' | 'authorLocked'>) => (
    <PostEditorPage session={session} authorLocked={!mayChangeAuthor(session)} history={deps.history === true} maxImageBytes={deps.maxUploadBytes} {...props} />
  );

  const list: AdminPage = async (request, session) => {
    const notice = NOTICES[queryOf(request).get('notice') ?? ''];
    const versions = (await deps.listVersions()).filter((version) => mayChangePost(session, version));
    // Campaigns are the owners' and editors' (app/admin-pages.ts opens the send pages to them alone).
    const sending = EDITORS.includes(session.role) ? deps.sending : undefined;
    return htmlAnswer(200, <PostListPage session={session} versions={versions} notice={notice} sending={sending} query={request.query} links={deps.links} />);
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
    const images = await postsOf(session).listPostImages(post.file);
    return htmlAnswer(200, editor(session, { file: post.file, fields: post.fields, body: post.body, version: post.version, baseText: post.text, notice, images }));
  };

  /**
   * Saves what the editor's form holds (fields, body, `version`, `base_text`), `change` applied to its fields: a
   * change made on disk meanwhile is merged in when the two do not overlap, else the 409 page keeps the text; a
   * field problem or a slug another post has is the editor again (422) with the text.
   */
  const saveTyped = async (request: AdminRequest, session: AdminSession, change: Partial<PostFields> = {}, logSaved = true): Promise<TypedSave> => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const version = form.get('version') ?? '';
    const baseText = form.get('base_text') ?? undefined;
    const submitted = submittedFields(request, session);
    const fields = { ...submitted.fields, ...change };
    const { body } = submitted;
    const action = change.draft === undefined ? undefined : change.draft ? 'unpublish' : 'publish';
    const outcome = await postsOf(session).save({ file, version, fields, body, baseText, mergeWhenApart: true, action });
    if (outcome.ok) {
      if (outcome.changed && logSaved) log('saved', session, outcome.file);
      return { ok: true, file: outcome.file, version: outcome.version, changed: outcome.changed, merged: outcome.merged === true };
    }
    switch (outcome.kind) {
      case 'invalid':
        // The form as it was sent: a Publish that failed leaves the post a draft, and the editor says so.
        return { ok: false, answer: htmlAnswer(422, editor(session, { file, fields: submitted.fields, body, version, baseText, problems: outcome.problems, images: await postsOf(session).listPostImages(file) })) };
      case 'forbidden':
        return { ok: false, answer: forbidden(session) };
      case 'conflict':
        return {
          ok: false,
          answer: htmlAnswer(
            409,
            <ConflictPage session={session} file={file} mine={outcome.mine} theirs={outcome.theirs} theirsVersion={outcome.theirsVersion} merged={outcome.merged} fields={fields} body={body} />,
          ),
        };
      case 'unreadable':
        return { ok: false, answer: message(422, session, 'The post cannot be saved', outcome.reason, { href: editPath(file), label: 'Back to the post' }) };
      default:
        return { ok: false, answer: notFound(session) };
    }
  };

  const save: AdminPage = async (request, session) => {
    // A new post's form may be saved here too: without a file, a save creates the post.
    if ((formOf(request).get('file') ?? '') === '') return create(request, session);
    const saved = await saveTyped(request, session);
    if (!saved.ok) return saved.answer;
    return redirectAnswer(editPath(saved.file, saved.merged ? 'merged' : saved.changed ? 'saved' : 'unchanged'));
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
    // Raw only as an owner would save it: the mark ticked, and fieldsFor keeps it for owners alone.
    const previewHtml = await deps.renderPreview(body, imagesOf, fields.rawHtml);
    // The Images panel lists them as the editor does, beside the preview that shows them.
    const images = file !== undefined && opened?.ok ? await postsOf(session).listPostImages(file) : [];
    return htmlAnswer(200, editor(session, { file, fields, body, version: form.get('version') ?? undefined, baseText: form.get('base_text') ?? undefined, previewHtml, images }));
  };

  const setDraft = (draft: boolean): AdminPage => async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const published = (to: string) => {
      log(draft ? 'unpublished' : 'published', session, to);
      return redirectAnswer(editPath(to, draft ? 'unpublished' : 'published'));
    };
    // The typed text and the draft key in one write: what was typed is published (or unpublished) with it.
    if (carriesTypedText(form)) {
      const saved = await saveTyped(request, session, { draft }, false);
      return saved.ok ? published(saved.file) : saved.answer;
    }
    const outcome = await postsOf(session).setDraft(file, draft, form.get('version') ?? undefined);
    if (outcome.ok) return published(outcome.file);
    if (outcome.kind === 'conflict') return message(409, session, 'The post changed meanwhile', 'The file changed on disk after you opened it; nothing was changed. Open it again.', { href: editPath(file), label: 'Open the post again' });
    if (outcome.kind === 'invalid') return message(422, session, 'The post cannot be published', outcome.problems.map((problem) => problem.message).join('; '), { href: editPath(file), label: 'Back to the post' });
    if (outcome.kind === 'unreadable') return message(422, session, 'The post cannot be changed', outcome.reason);
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const translate: AdminPage = async (request, session) => {
    const form = formOf(request);
    let file = form.get('file') ?? '';
    // What was typed is saved first: the translation copies it.
    let savedNote = '';
    if (carriesTypedText(form)) {
      const saved = await saveTyped(request, session);
      if (!saved.ok) return saved.answer;
      file = saved.file;
      if (saved.changed) savedNote = ' What you typed was saved.';
    }
    const outcome = await postsOf(session).addTranslation(file, (form.get('language') ?? '').trim());
    if (outcome.ok) {
      log('translation_added', session, outcome.file);
      return redirectAnswer(editPath(outcome.file, 'translation'));
    }
    const back = { href: editPath(file), label: 'Back to the post' };
    if (outcome.kind === 'invalid') return message(422, session, 'No translation added', outcome.problems.map((problem) => problem.message).join('; ') + savedNote, back);
    if (outcome.kind === 'exists') return message(409, session, 'No translation added', `That translation exists already: ${outcome.file}.${savedNote}`, { href: editPath(outcome.file), label: 'Open it' });
    if (outcome.kind === 'unreadable' || outcome.kind === 'refused') return message(422, session, 'No translation added', outcome.reason + savedNote, back);
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const remove: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = form.get('file') ?? '';
    const version = form.get('version') ?? undefined;
    if (!isConfirmed(form)) {
      // Asked first, for a post the person may delete: the page names it by its title and file.
      const opened = await postsOf(session).read(file);
      if (!opened.ok && opened.kind === 'forbidden') return forbidden(session);
      if (!opened.ok && opened.kind !== 'unreadable') return notFound(session);
      const title = opened.ok ? opened.post.fields.title : '';
      return htmlAnswer(
        200,
        <ConfirmPage
          session={session}
          section="posts"
          title={`Delete the post ${file}?`}
          action="/admin/posts/delete"
          fields={{ file, ...(version !== undefined ? { version } : {}) }}
          cancel={{ href: editPath(file), label: 'Cancel, back to the post' }}
        >
          <p>
            {title !== '' && (
              <>
                “{title}”,{' '}
              </>
            )}
            the file <code>{file}</code>, will be moved to the trash folder (<code>data_dir/trash</code>). The blog stops
            serving it within two seconds. It can be restored by moving it back by hand.
          </p>
          {file.includes('/') && <p>When it is the last version in its folder, the folder and its images go to the trash with it.</p>}
        </ConfirmPage>,
      );
    }
    const outcome = await postsOf(session).remove(file, version);
    if (outcome.ok) {
      log('deleted', session, file);
      return redirectAnswer('/admin/posts?notice=deleted');
    }
    if (outcome.kind === 'conflict') return message(409, session, 'The post changed meanwhile', 'The file changed on disk after you opened it; it was not deleted. Open it again.', { href: editPath(file), label: 'Open the post again' });
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const deleteImage: AdminPage = async (request, session) => {
    const form = formOf(request);
    let file = form.get('file') ?? '';
    // `name`, or the editor form's image button (`delete_image`, with what was typed: saved first).
    const name = form.get('name') ?? form.get('delete_image') ?? '';
    const noImage = () => message(404, session, 'No such image', 'There is no image by that name beside this post.', { href: editPath(file), label: 'Back to the post' });
    if (!isConfirmed(form)) {
      if (carriesTypedText(form)) {
        const saved = await saveTyped(request, session);
        if (!saved.ok) return saved.answer;
        file = saved.file;
      }
      const opened = await postsOf(session).read(file);
      if (!opened.ok && opened.kind === 'forbidden') return forbidden(session);
      if (!opened.ok && opened.kind !== 'unreadable') return notFound(session);
      const image = (await postsOf(session).listPostImages(file)).find((entry) => entry.name === name);
      if (!image) return noImage();
      return htmlAnswer(
        200,
        <ConfirmPage
          session={session}
          section="posts"
          title={`Delete the image ${name}?`}
          action="/admin/posts/images/delete"
          fields={{ file, name }}
          cancel={{ href: editPath(file), label: 'Cancel, back to the post' }}
        >
          {deps.mediaInStorage ? (
            <p>
              The image <code>{name}</code> ({image.bytes} bytes) beside <code>{file}</code> will be deleted from the
              media storage, for good. A text that still shows it, in this post or a translation, shows a missing image.
            </p>
          ) : (
            <p>
              The image <code>{name}</code> ({image.bytes} bytes) beside <code>{file}</code> will be moved to the trash
              folder (<code>data_dir/trash</code>), where it can be restored by hand. A text that still shows it, in this
              post or a translation, shows a missing image.
            </p>
          )}
        </ConfirmPage>,
      );
    }
    const outcome = await postsOf(session).deleteImage(file, name);
    if (outcome.ok) {
      log('image_deleted', session, file);
      return redirectAnswer(editPath(file, outcome.kind === 'deleted' ? 'image_removed' : 'image_deleted'));
    }
    if (outcome.kind === 'no_image') return noImage();
    if (outcome.kind === 'forbidden') return forbidden(session);
    return notFound(session);
  };

  const upload: AdminPage = async (request, session) => {
    const form = formOf(request);
    let file = form.get('file') ?? '';
    const image = request.form?.files.find((entry) => entry.field === 'image' && entry.data.length > 0);
    const typed = carriesTypedText(form);
    if (!image && typed) {
      // The editor again, with what was typed: nothing is written.
      const { fields, body } = submittedFields(request, session);
      const problems = [{ field: 'file' as const, message: 'No image was uploaded: choose an image file first.' }];
      return htmlAnswer(422, editor(session, { file, fields, body, version: form.get('version') ?? undefined, baseText: form.get('base_text') ?? undefined, problems }));
    }
    if (!image) return message(422, session, 'No image uploaded', 'Choose an image file first.', { href: editPath(file), label: 'Back to the post' });
    if (typed) {
      // What was typed is saved first; the image then goes beside the post as it is on disk.
      const saved = await saveTyped(request, session);
      if (!saved.ok) return saved.answer;
      file = saved.file;
    }
    const back = { href: editPath(file), label: 'Back to the post' };
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
    { path: '/admin/posts/images/delete', methods: { POST: deleteImage } },
    { path: CONFLICT_CSS_PATH, methods: { GET: () => ({ status: 200, headers: { 'content-type': 'text/css; charset=utf-8' }, body: CONFLICT_CSS }) } },
  ];
  return routes.map((route) => ({ ...route, roles: EVERY_ROLE }));
}
