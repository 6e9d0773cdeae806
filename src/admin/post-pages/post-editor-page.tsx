// The editor of one version (or of a new post), writing first: the title and the Markdown text, with a formatting
// toolbar and a live preview beside it, and the other front-matter fields in a "Post settings" panel beside the text
// on wide screens (below it on narrow ones). Every button (Save, Preview, Publish/Unpublish, Upload image, Add
// translation, Delete, an image's Delete) submits the one editor form, the others through `formaction`, so the typed
// text always goes along. Works without JavaScript; the editor's script (browser/editor.ts) adds the toolbar and its
// keys, the live preview, image paste and drop, the question before leaving unsaved text, and the unsaved draft kept
// on the server (editor-pages.tsx). Both previews are the blog renderer's HTML, which keeps a post's raw HTML, so
// they are shown only inside sandboxed frames: a post's markup and scripts never run in the admin's pages.
import { draftOffer, type DraftOffer } from '../drafts/draft-offer.js';
import type { UnsavedDraft } from '../drafts/draft-store.js';
import type { FieldProblem, PostFields } from '../posts/post-files.js';
import type { PostImage } from '../posts/post-images.js';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from '../views/csrf-field.js';
import { Time } from '../views/time.js';
import { Layout } from '../views/layout.js';

/** The editor's script (browser/editor.ts, served at its versioned address: admin-assets.ts). */
export const EDITOR_SCRIPT = 'editor.js';


export interface EditorProps {
  session: AdminSession;
  /** The version being edited; undefined for a new post. */
  file?: string;
  fields: PostFields;
  body: string;
  /** The token and text the editor was opened on (a save presents them). */
  version?: string;
  baseText?: string;
  problems?: readonly FieldProblem[];
  notice?: string;
  /** The rendered post, for "Preview". */
  previewHtml?: string;
  /** The author field is shown but not editable: an author's posts carry their own name (posts/post-access.ts). */
  authorLocked?: boolean;
  /** The images beside the post (none for a `<slug>.md` post or a new one), listed with Insert and Delete. */
  images?: readonly PostImage[];
  /** Posts have a history (docs/admin.md "Posts in git"): the page links to this post's. */
  history?: boolean;
  /**
   * The text shown is not what is on disk (typed text given back after a button): leaving asks first. Pages with
   * `previewHtml`, `problems` or a restored draft are unsaved anyway.
   */
  unsavedText?: boolean;
  /** The largest image an upload takes (`[admin] max_upload_bytes`): the upload's label names it, the script checks it. */
  maxImageBytes?: number;
}

const LABELS: Record<keyof PostFields, string> = {
  title: 'Title',
  slug: 'Slug',
  date: 'Date',
  tags: 'Tags',
  draft: 'Draft (not published)',
  excerpt: 'Excerpt',
  cover: 'Cover image',
  coverAlt: 'Cover image text (alt)',
  author: 'Author',
  lang: 'Language',
  rawHtml: 'Raw HTML: scripts and embeds run as written',
};

const HINTS: Partial<Record<keyof PostFields, string>> = {
  slug: 'Empty on a new post: made from the title (Crème brûlée becomes creme-brulee). Empty on an existing post: the file name gives it. A slug another post has in this language is refused.',
  date: 'YYYY-MM-DD; or a date and time in the admin\u2019s time zone, 2026-12-01 09:30; or RFC 3339 with an offset. A date in the future schedules the post: it appears by itself then.',
  tags: 'Separated by commas.',
  lang: 'A language code such as en or pt-BR; empty: the file name\u2019s, else the site\u2019s.',
};

/** The hint of the author field when the person cannot change it. */
const LOCKED_AUTHOR_HINT = 'Your posts carry your name.';

/** The formatting toolbar: each button's name and what it does in editor.js. */
const TOOLBAR = [
  { action: 'bold', label: 'Bold', text: 'B', keys: 'Control+B' },
  { action: 'italic', label: 'Italic', text: 'I', keys: 'Control+I' },
  { action: 'link', label: 'Link', text: 'Link', keys: 'Control+K' },
  { action: 'heading', label: 'Heading', text: 'H', keys: undefined },
  { action: 'quote', label: 'Quote', text: '\u201c', keys: undefined },
  { action: 'list', label: 'List', text: '\u2022', keys: undefined },
  { action: 'code', label: 'Code', text: '</>', keys: undefined },
  { action: 'image', label: 'Image', text: 'Image', keys: undefined },
] as const;

function TextField({
  name,
  value,
  problems,
  readOnly = false,
}: {
  name: Exclude<keyof PostFields, 'draft' | 'tags'> | 'tags';
  value: string;
  problems: readonly FieldProblem[];
  readOnly?: boolean;
}) {
  const id = `field-${name}`;
  const hint = readOnly && name === 'author' ? LOCKED_AUTHOR_HINT : HINTS[name];
  const problem = problems.find((entry) => entry.field === name);
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <p>
      <label for={id}>{LABELS[name]}</label>
      <input type="text" id={id} name={name} value={value} readOnly={readOnly} aria-describedby={described} aria-invalid={problem ? 'true' : undefined} />
      {hint && (
        <span class="admin-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {problem && (
        <span class="admin-problem" id={`${id}-problem`}>
          {problem.message}
        </span>
      )}
    </p>
  );
}

/** Whether the draft holds what the editor shows already (then there is nothing to offer). */
function sameText(draft: UnsavedDraft, fields: PostFields, body: string): boolean {
  const normalize = (text: string) => text.replace(/\r\n?/g, '\n');
  const names = Object.keys(LABELS) as Array<keyof PostFields>;
  return names.every((name) => JSON.stringify(draft.fields[name]) === JSON.stringify(fields[name])) && normalize(draft.body) === normalize(body);
}

/** When a draft was kept, in `[admin] time_zone`. */
function SavedAt({ at, zone }: { at: number; zone: string }) {
  return <Time at={at} zone={zone} />;
}

/** A byte count as people read it. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export function PostEditorPage(props: EditorProps) {
  const { session, file, problems = [] } = props;
  const isNew = file === undefined;
  // The draft routes tell which unsaved draft the person has of this post (drafts/draft-offer.ts).
  const found: DraftOffer | undefined = draftOffer();
  const offer = found && !sameText(found.draft, props.fields, props.body) ? found : undefined;
  const restored = offer?.restore ? offer.draft : undefined;
  const fields: PostFields = restored ? { ...restored.fields, author: props.authorLocked ? props.fields.author : restored.fields.author } : props.fields;
  const body = restored ? restored.body : props.body;
  const unsaved = props.unsavedText || restored !== undefined || props.previewHtml !== undefined || problems.length > 0;
  const title = isNew ? 'New post' : `Edit ${props.fields.title || file}`;
  const bodyProblem = problems.find((entry) => entry.field === 'file');
  return (
    <Layout title={title} session={session} section="posts" scripts={[EDITOR_SCRIPT]}>
      <div class="admin-editor-page">
        <h1>{title}</h1>
        {!isNew && (
          <p>
            File: <code>{file}</code>
            {props.history && (
              <>
                {' '}
                <a href={`/admin/posts/history?${new URLSearchParams({ file }).toString()}`}>
                  History
                </a>
              </>
            )}
          </p>
        )}
        {props.notice && (
          <p class="admin-notice" role="status">
            {props.notice}
          </p>
        )}
        {restored && (
          <p class="admin-notice">
            Your unsaved changes from <SavedAt at={restored.savedAt} zone={session.timeZone} /> are in the editor. Save to keep them.
          </p>
        )}
        {offer && !restored && <DraftOfferBox session={session} file={file} draft={offer.draft} />}
        {problems.length > 0 && (
          <div class="admin-problem" role="alert">
            <p>The post was not saved:</p>
            <ul>
              {problems.map((problem) => (
                <li key={`${problem.field}-${problem.message}`}>
                  {problem.field === 'file' ? '' : `${LABELS[problem.field]}: `}
                  {problem.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {props.previewHtml !== undefined && (
          <section aria-labelledby="preview-heading" class="admin-preview">
            <h2 id="preview-heading">Preview (not saved)</h2>
            <iframe title="Preview of the post" sandbox="" srcdoc={props.previewHtml} class="admin-preview-frame" />
          </section>
        )}
        <form
          method="post"
          action={isNew ? '/admin/posts/new' : '/admin/posts/save'}
          class="admin-form admin-editor"
          id="post-editor"
          data-editor=""
          data-unsaved={unsaved ? 'true' : undefined}
        >
          <CsrfField session={session} />
          {!isNew && <input type="hidden" name="file" value={file} />}
          {props.version && <input type="hidden" name="version" value={props.version} />}
          {props.baseText !== undefined && <input type="hidden" name="base_text" value={props.baseText} />}
          <div class="admin-editor-layout">
            <div class="admin-editor-main">
              <TextField name="title" value={fields.title} problems={problems} />
              <div class="admin-editor-writing">
                <div class="admin-editor-text">
                  <label for="field-body">Text (Markdown)</label>
                  <div class="admin-editor-toolbar" role="toolbar" aria-label="Formatting" aria-controls="field-body" data-editor-toolbar="" hidden>
                    {TOOLBAR.map((tool) => (
                      <button key={tool.action} type="button" data-format={tool.action} aria-label={tool.label} title={tool.label} aria-keyshortcuts={tool.keys}>
                        {tool.text}
                      </button>
                    ))}
                    <input type="file" data-image-picker="" data-max-bytes={props.maxImageBytes} hidden tabIndex={-1} aria-label="Image to insert" accept="image/png,image/jpeg,image/gif,image/webp,image/avif" />
                  </div>
                  <textarea id="field-body" name="body" rows={20} aria-invalid={bodyProblem ? 'true' : undefined} aria-describedby="field-body-hint">
                    {body}
                  </textarea>
                  <span class="admin-hint" id="field-body-hint">
                    {isNew
                      ? 'Markdown: **bold**, _italic_, [a link](https://example.com). Images can be added once the post is created.'
                      : 'Markdown: **bold**, _italic_, [a link](https://example.com), ![what an image shows](name.png) for an image beside the post.'}
                  </span>
                  <span class="admin-hint" data-editor-keys="" hidden>
                    Ctrl+B ({'\u2318'}B on a Mac) bold, Ctrl+I italic, Ctrl+K link.
                    {isNew ? '' : ` Paste or drop an image${props.maxImageBytes === undefined ? '' : ` (at most ${sizeText(props.maxImageBytes)})`} into the text to upload it.`}
                  </span>
                </div>
                <section class="admin-editor-live" aria-labelledby="live-preview-heading" data-live-preview="" hidden>
                  <h2 id="live-preview-heading">Live preview</h2>
                  <iframe title="Live preview" sandbox="" class="admin-preview-frame" data-live-frame="" />
                </section>
              </div>
              <p class="admin-editor-message" aria-live="polite" data-editor-message="" />
              <p class="admin-actions">
                <button type="submit">{isNew ? 'Create' : 'Save'}</button>
                <button type="submit" formaction="/admin/posts/preview">
                  Preview
                </button>
                {!isNew && <button type="submit" formaction={fields.draft ? '/admin/posts/publish' : '/admin/posts/unpublish'}>{fields.draft ? 'Publish' : 'Unpublish'}</button>}
                <span class="admin-editor-saved" data-draft-status="" />
              </p>
            </div>
            <div class="admin-editor-side">
              <fieldset class="admin-editor-settings">
                <legend>Post settings</legend>
                <TextField name="slug" value={fields.slug} problems={problems} />
                <TextField name="date" value={fields.date} problems={problems} />
                <p>
                  <label for="field-date-pick">Or pick a date and time ({session.timeZone})</label>
                  <input type="datetime-local" id="field-date-pick" name="date_pick" step={60} />
                </p>
                <TextField name="tags" value={fields.tags.join(', ')} problems={problems} />
                <p class="admin-check">
                  <input type="checkbox" id="field-draft" name="draft" checked={fields.draft} />
                  <label for="field-draft">{LABELS.draft}</label>
                </p>
                <TextField name="excerpt" value={fields.excerpt} problems={problems} />
                <TextField name="cover" value={fields.cover} problems={problems} />
                <TextField name="coverAlt" value={fields.coverAlt} problems={problems} />
                <TextField name="author" value={fields.author} problems={problems} readOnly={props.authorLocked} />
                <TextField name="lang" value={fields.lang} problems={problems} />
                {props.session.role === 'owner' ? (
                  <p class="admin-check">
                    <input type="checkbox" id="field-raw-html" name="raw_html" checked={fields.rawHtml} aria-describedby="raw-html-hint" />
                    <label for="field-raw-html">{LABELS.rawHtml}</label>
                    <span class="admin-hint" id="raw-html-hint">
                      Only for text you have read: without it, the post's HTML is cleaned of scripts, event handlers and frames.
                    </span>
                  </p>
                ) : (
                  fields.rawHtml && <p class="admin-hint">This post's raw HTML is written through as an owner marked it; saving it cleans its HTML until an owner marks it again.</p>
                )}
              </fieldset>
              {!isNew && <ImagesPanel images={props.images ?? []} maxBytes={props.maxImageBytes} />}
              {!isNew && (
                <fieldset class="admin-editor-panel">
                  <legend>Translation</legend>
                  <p>
                    <label for="translate-language">Language of the translation</label>
                    <input type="text" id="translate-language" name="language" />
                  </p>
                  <p>
                    <button type="submit" formaction="/admin/posts/translate">
                      Add translation
                    </button>
                  </p>
                </fieldset>
              )}
              {!isNew && (
                <p>
                  <button type="submit" formaction="/admin/posts/delete">
                    Delete (move to the trash)
                  </button>
                </p>
              )}
            </div>
          </div>
        </form>
      </div>
    </Layout>
  );
}

/** The images beside the post, each with Insert (with script) and Delete, and the upload. */
function ImagesPanel({ images, maxBytes }: { images: readonly PostImage[]; maxBytes?: number }) {
  return (
    <fieldset class="admin-editor-panel">
      <legend>Images</legend>
      <ul class="admin-editor-images" data-image-list="">
        {images.map((image) => (
          <li key={image.name}>
            <code>{image.name}</code> <span class="admin-hint-inline">({sizeText(image.bytes)})</span>{' '}
            <button type="button" data-insert-image={image.name} aria-label={`Insert ${image.name}`} hidden>
              Insert
            </button>{' '}
            <button type="submit" formaction="/admin/posts/images/delete" name="delete_image" value={image.name} aria-label={`Delete ${image.name}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {images.length === 0 && <p data-image-none="">No images beside the post yet.</p>}
      <p>
        <label for="upload-image">Image (PNG, JPEG, GIF, WebP or AVIF{maxBytes === undefined ? '' : `, at most ${sizeText(maxBytes)}`})</label>
        <input type="file" id="upload-image" name="image" data-max-bytes={maxBytes} accept="image/png,image/jpeg,image/gif,image/webp,image/avif" />
      </p>
      <p>
        <button type="submit" formaction="/admin/posts/upload" formenctype="multipart/form-data">
          Upload image
        </button>
      </p>
    </fieldset>
  );
}

/** "Restore unsaved changes from <time>" (the editor opened again with `restore=1`) and "Discard". */
function DraftOfferBox({ session, file, draft }: { session: AdminSession; file?: string; draft: UnsavedDraft }) {
  return (
    <section class="admin-notice admin-draft-offer" aria-labelledby="draft-offer-heading">
      <h2 id="draft-offer-heading">Unsaved changes</h2>
      <p>This post has changes you typed and did not save.</p>
      <div class="admin-actions">
        <form method="get" action={file === undefined ? '/admin/posts/new' : '/admin/posts/edit'} data-editor-leave="">
          {file !== undefined && <input type="hidden" name="file" value={file} />}
          <input type="hidden" name="restore" value="1" />
          <button type="submit">
            Restore unsaved changes from <SavedAt at={draft.savedAt} zone={session.timeZone} />
          </button>
        </form>
        <form method="post" action="/admin/posts/draft/discard" data-editor-leave="">
          <CsrfField session={session} />
          {file !== undefined && <input type="hidden" name="file" value={file} />}
          <button type="submit">Discard</button>
        </form>
      </div>
    </section>
  );
}
