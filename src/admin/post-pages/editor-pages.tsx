// The editor's script routes (docs/admin.md "Posts"; the script is browser/editor.ts), all POSTs through the admin's
// guard like any form (sign-in, origin, the csrf_token field of the urlencoded or multipart body), answering JSON:
//
//   POST /admin/posts/preview.json   file?, body              -> {html}: the blog renderer's HTML, for a sandboxed frame
//   POST /admin/posts/draft          file?, the editor fields -> {savedAt}: kept as the person's unsaved draft
//   POST /admin/posts/upload.json    file, image (multipart)  -> {file, name, markdown, bytes}: stored beside the post
//   POST /admin/posts/draft/discard  file?                    -> 303 back to the editor (a plain form, no script needed)
//
// `file` is the post file being edited; without one the draft is that of a new post ("new"). What a person may
// touch is the posts pages' rule (posts/post-access.ts): another's post is 403 and nothing is kept or stored.
// withUnsavedDrafts wraps the posts pages' own routes: opening the editor offers the person's draft (restored with
// `?restore=1`), and a successful Save or Create removes it.
import type { Answer } from '../../http/answer.js';
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Clock } from '../../ports.js';
import { EVERY_ROLE } from '../accounts/roles.js';
import type { AdminPage, AdminRequest, AdminRoute } from '../admin-pages.js';
import { withDraftOffer } from '../drafts/draft-offer.js';
import { NEW_POST_DRAFT_KEY, type DraftStore } from '../drafts/draft-store.js';
import { mayChangePost } from '../posts/post-access.js';
import { mayWriteRawHtml } from '../posts/raw-html.js';
import type { PostFiles } from '../posts/post-files.js';
import { redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { fieldsOfForm } from './form-fields.js';

export interface EditorPagesDeps {
  /** The same post files as the posts pages (their writes take turns). */
  posts: PostFiles;
  /**
   * The posts pages' preview renderer (preview.ts): the blog's HTML, images beside the post inlined, sanitised
   * as the blog does unless `rawHtml` (docs/blog.md "Raw HTML").
   */
  renderPreview(body: string, file: string | undefined, rawHtml: boolean): string | Promise<string>;
  drafts: DraftStore;
  maxUploadBytes: number;
  clock: Clock;
  logger: Logger;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function json(status: number, body: unknown): Answer {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body) };
}

const formOf = (request: AdminRequest) => request.form?.fields ?? new URLSearchParams();
/** The post file a form names, undefined for a new post. */
const fileOf = (form: URLSearchParams): string | undefined => {
  const file = form.get('file');
  return file === null || file === '' ? undefined : file;
};
const editorPath = (file: string | undefined) => (file === undefined ? '/admin/posts/new' : `/admin/posts/edit?${new URLSearchParams({ file }).toString()}`);

export function createEditorPages(deps: EditorPagesDeps): AdminRoute[] {
  const { posts, drafts, logger } = deps;
  const postsOf = (session: AdminSession): PostFiles => posts.withAccess((post) => mayChangePost(session, post), { rawHtml: mayWriteRawHtml(session) }).by(session.user);
  /** The refusal for a post the person may not open, or undefined when they may (a new post: always). */
  const refusalOf = async (session: AdminSession, file: string | undefined): Promise<Answer | undefined> => {
    if (file === undefined) return undefined;
    const opened = await postsOf(session).read(file);
    if (opened.ok) return undefined;
    if (opened.kind === 'forbidden') return json(403, { error: 'forbidden' });
    return json(404, { error: 'not_found' });
  };

  const previewJson: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = fileOf(form);
    // As "Preview" (post-pages.tsx): images beside the post only for a post the person may change, as on disk now;
    // a file that cannot be read names a folder of nobody's post, shown only to those who may change those.
    const opened = file === undefined ? undefined : await postsOf(session).read(file);
    if (opened && !opened.ok && opened.kind === 'forbidden') return json(403, { error: 'forbidden' });
    const imagesOf = opened === undefined || opened.ok || mayChangePost(session, {}) ? file : undefined;
    // Raw only for an owner, and only for a post marked raw_html on disk now (a new post is not).
    const rawHtml = mayWriteRawHtml(session) && opened !== undefined && opened.ok && opened.post.fields.rawHtml;
    const html = await deps.renderPreview(form.get('body') ?? '', imagesOf, rawHtml);
    return json(200, { html });
  };

  const keepDraft: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = fileOf(form);
    const refusal = await refusalOf(session, file);
    if (refusal) return refusal;
    const { fields, body } = fieldsOfForm(form);
    const savedAt = deps.clock();
    await drafts.put(session.user, file ?? NEW_POST_DRAFT_KEY, { fields, body, savedAt });
    return json(200, { savedAt });
  };

  // The person's own draft only: nothing of anybody else's can be named.
  const discardDraft: AdminPage = async (request, session) => {
    const file = fileOf(formOf(request));
    await drafts.remove(session.user, file ?? NEW_POST_DRAFT_KEY);
    return redirectAnswer(editorPath(file));
  };

  const uploadJson: AdminPage = async (request, session) => {
    const form = formOf(request);
    const file = fileOf(form);
    if (file === undefined) return json(422, { error: 'no_post', message: 'Create the post first, then add images.' });
    const image = request.form?.files.find((entry) => entry.field === 'image' && entry.data.length > 0);
    if (!image) return json(422, { error: 'no_image', message: 'Choose an image file first.' });
    const outcome = await postsOf(session).storeImage(file, image.fileName, image.data, deps.maxUploadBytes);
    if (outcome.ok) {
      logger.info({ event: 'admin_post_image_uploaded', user: session.user, file: outcome.postFile }, 'admin: post image_uploaded');
      // A `<slug>.md` post moved into `<slug>/index.md`: its unsaved draft follows it.
      if (outcome.postFile !== file) await moveDraft(session.user, file, outcome.postFile);
      return json(200, { file: outcome.postFile, name: outcome.fileName, markdown: outcome.markdown, bytes: image.data.length });
    }
    switch (outcome.kind) {
      case 'too_large':
        return json(413, { error: 'too_large', message: `Images may be at most ${outcome.maxBytes} bytes.` });
      case 'not_an_image':
        return json(415, { error: 'not_an_image', message: 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.' });
      case 'folder_taken':
        return json(409, { error: 'folder_taken', message: `The folder ${outcome.folder} is taken by something else.` });
      case 'refused':
        return json(422, { error: 'refused', message: outcome.reason });
      case 'forbidden':
        return json(403, { error: 'forbidden', message: 'Your role changes only your own posts.' });
      default:
        return json(404, { error: 'not_found', message: 'There is no post file by that name.' });
    }
  };

  const moveDraft = async (user: string, from: string, to: string) => {
    const draft = await drafts.get(user, from);
    if (!draft) return;
    await drafts.put(user, to, draft);
    await drafts.remove(user, from);
  };

  const routes: AdminRoute[] = [
    { path: '/admin/posts/preview.json', methods: { POST: previewJson } },
    { path: '/admin/posts/draft', methods: { POST: keepDraft } },
    { path: '/admin/posts/draft/discard', methods: { POST: discardDraft } },
    { path: '/admin/posts/upload.json', methods: { POST: uploadJson } },
  ];
  return routes.map((route) => ({ ...route, roles: EVERY_ROLE }));
}

/** The posts pages' POSTs that write the editor's typed text (post-pages.tsx saves it first) or delete the post. */
const WRITES_TYPED_TEXT = ['/admin/posts/save', '/admin/posts/publish', '/admin/posts/unpublish', '/admin/posts/translate', '/admin/posts/upload'];

/**
 * The posts pages' routes with unsaved drafts: GET /admin/posts/edit and /admin/posts/new render inside the person's
 * draft offer (drafts/draft-offer.ts); a POST that wrote the typed text (its 303: Save, Create, Publish, Unpublish,
 * Add translation, Upload image) removes the draft it kept, and so does a Delete of the post. One that answered 409 (the
 * post changed meanwhile, here or in the shared repository: docs/admin.md "Posts in git") keeps the typed text as
 * the person's draft, besides the conflict page that shows it.
 */
export function withUnsavedDrafts(routes: readonly AdminRoute[], drafts: DraftStore, logger: Logger, clock: Clock = Date.now): AdminRoute[] {
  const queryOf = (request: AdminRequest) => new URLSearchParams(request.query);
  const offering =
    (page: AdminPage, keyOf: (request: AdminRequest) => string | undefined): AdminPage =>
    async (request, session) => {
      const key = keyOf(request);
      // A draft that cannot be read never keeps the editor from opening.
      const draft =
        key === undefined
          ? undefined
          : await drafts.get(session.user, key).catch((error: unknown) => {
              logger.warn({ event: 'admin_draft_unreadable', user: session.user, reason: safeReason(error) }, 'admin: unsaved draft not read');
              return undefined;
            });
      return withDraftOffer(draft && { draft, restore: queryOf(request).get('restore') === '1' }, () => page(request, session));
    };
  /** `page`, and the draft of the form's post (a form without a file: the new post's) gone when it answered 303. */
  const removing =
    (page: AdminPage, wrote: (form: URLSearchParams) => boolean): AdminPage =>
    async (request, session) => {
      const answer = await page(request, session);
      const form = formOf(request);
      if (answer.status === 303 && wrote(form)) await drafts.remove(session.user, fileOf(form) ?? NEW_POST_DRAFT_KEY);
      if (answer.status === 409 && carriesText(form)) {
        const { fields, body } = fieldsOfForm(form);
        await drafts.put(session.user, fileOf(form) ?? NEW_POST_DRAFT_KEY, { fields, body, savedAt: clock() }).catch((error: unknown) => {
          logger.warn({ event: 'admin_draft_not_kept', user: session.user, reason: safeReason(error) }, 'admin: typed text of a conflict not kept as a draft');
        });
      }
      return answer;
    };
  // An older page's Publish (or a confirmation page's) posts no text: the draft then holds what nothing wrote.
  const carriesText = (form: URLSearchParams) => form.has('title') || form.has('body');
  const always = () => true;
  return routes.map((route) => {
    const { GET, POST } = route.methods;
    if (route.path === '/admin/posts/edit' && GET) return { ...route, methods: { ...route.methods, GET: offering(GET, (request) => queryOf(request).get('file') || undefined) } };
    if (route.path === '/admin/posts/new') {
      return { ...route, methods: { ...route.methods, ...(GET && { GET: offering(GET, () => NEW_POST_DRAFT_KEY) }), ...(POST && { POST: removing(POST, always) }) } };
    }
    if (WRITES_TYPED_TEXT.includes(route.path) && POST) return { ...route, methods: { ...route.methods, POST: removing(POST, carriesText) } };
    if (route.path === '/admin/posts/delete' && POST) return { ...route, methods: { ...route.methods, POST: removing(POST, always) } };
    return route;
  });
}
