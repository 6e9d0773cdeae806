// The editor of one version (or of a new post): every front-matter field the form edits, the Markdown body, and
// the buttons Save, Preview, Publish/Unpublish, Add translation, Delete and an image upload. Works without
// JavaScript: each button is a submit of its own form or a formaction of the main one. The preview is the post's
// HTML from the blog's renderer inside a sandboxed frame: its scripts never run in the admin's origin.
import type { FieldProblem, PostFields } from '../posts/post-files.js';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';

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
};

const HINTS: Partial<Record<keyof PostFields, string>> = {
  slug: 'Leave empty to use the file name.',
  date: 'YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ. A date in the future schedules the post: it appears by itself then.',
  tags: 'Separated by commas.',
  lang: 'A language code such as en or pt-BR; empty: the file name\u2019s, else the site\u2019s.',
};

/** The hint of the author field when the person cannot change it. */
const LOCKED_AUTHOR_HINT = 'Your posts carry your name.';

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

export function PostEditorPage(props: EditorProps) {
  const { session, file, fields, body, problems = [] } = props;
  const isNew = file === undefined;
  const title = isNew ? 'New post' : `Edit ${fields.title || file}`;
  const bodyProblem = problems.find((entry) => entry.field === 'file');
  return (
    <Layout title={title} session={session} section="posts">
      <h1>{title}</h1>
      {!isNew && (
        <p>
          File: <code>{file}</code>
        </p>
      )}
      {props.notice && (
        <p class="admin-notice" role="status">
          {props.notice}
        </p>
      )}
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
      <form method="post" action={isNew ? '/admin/posts/new' : '/admin/posts/save'} class="admin-form admin-editor">
        <CsrfField session={session} />
        {!isNew && <input type="hidden" name="file" value={file} />}
        {props.version && <input type="hidden" name="version" value={props.version} />}
        {props.baseText !== undefined && <input type="hidden" name="base_text" value={props.baseText} />}
        <TextField name="title" value={fields.title} problems={problems} />
        <TextField name="slug" value={fields.slug} problems={problems} />
        <TextField name="date" value={fields.date} problems={problems} />
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
        <p>
          <label for="field-body">Text (Markdown)</label>
          <textarea id="field-body" name="body" rows={20} aria-invalid={bodyProblem ? 'true' : undefined}>
            {body}
          </textarea>
        </p>
        <p class="admin-actions">
          <button type="submit">{isNew ? 'Create' : 'Save'}</button>
          <button type="submit" formaction="/admin/posts/preview">
            Preview
          </button>
        </p>
      </form>
      {!isNew && <VersionActions session={session} file={file} version={props.version} draft={fields.draft} />}
    </Layout>
  );
}

/** Publish or unpublish, add a translation, upload an image, delete: each its own small form. */
function VersionActions({ session, file, version, draft }: { session: AdminSession; file: string; version?: string; draft: boolean }) {
  const hidden = (
    <>
      <CsrfField session={session} />
      <input type="hidden" name="file" value={file} />
      {version && <input type="hidden" name="version" value={version} />}
    </>
  );
  return (
    <section aria-labelledby="actions-heading" class="admin-version-actions">
      <h2 id="actions-heading">More</h2>
      <form method="post" action={draft ? '/admin/posts/publish' : '/admin/posts/unpublish'} class="admin-form">
        {hidden}
        <button type="submit">{draft ? 'Publish' : 'Unpublish'}</button>
      </form>
      <form method="post" action="/admin/posts/upload" enctype="multipart/form-data" class="admin-form">
        {hidden}
        <p>
          <label for="upload-image">Image (PNG, JPEG, GIF, WebP or AVIF)</label>
          <input type="file" id="upload-image" name="image" accept="image/png,image/jpeg,image/gif,image/webp,image/avif" />
        </p>
        <button type="submit">Upload image</button>
      </form>
      <form method="post" action="/admin/posts/translate" class="admin-form">
        {hidden}
        <p>
          <label for="translate-language">Language of the translation</label>
          <input type="text" id="translate-language" name="language" />
        </p>
        <button type="submit">Add translation</button>
      </form>
      <form method="post" action="/admin/posts/delete" class="admin-form">
        {hidden}
        <button type="submit">Delete (move to the trash)</button>
      </form>
    </section>
  );
}
