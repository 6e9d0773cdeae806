// 409: the file changed on disk since the editor opened it, and the two changes overlap (docs/admin.md "Posts";
// changes that do not overlap are saved together without this page). Nothing was written. The page shows both
// versions side by side (stacked on a narrow screen), each line that differs marked with the word "changed" as
// well as a highlight, and keeps what the person typed in an editable field, with a way to save it.
import { diffComm } from 'node-diff3';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { unixLines } from '../posts/merge.js';
import type { PostFields } from '../posts/post-files.js';
import { FIELD_NAMES } from './form-fields.js';

/** Where the page's stylesheet is served (post-pages.tsx): the CSP runs no inline style. */
export const CONFLICT_CSS_PATH = '/admin/posts/conflict.css';

/** Two columns from 50rem up, one above the other below; lines keep their spaces and wrap. */
export const CONFLICT_CSS = `.admin-compare { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; margin: 1rem 0; }
@media (min-width: 50rem) { .admin-compare { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.admin-compare h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
.admin-compare-lines { margin: 0; padding: 0.5rem 0.5rem 0.5rem 3rem; border: 1px solid #8886; font: 0.9rem/1.4 ui-monospace, monospace; }
.admin-compare-lines li { white-space: pre-wrap; overflow-wrap: anywhere; min-height: 1.4em; }
.admin-compare-marker { font: 700 0.75rem/1 system-ui, sans-serif; text-transform: uppercase; margin-right: 0.4rem; }
.admin-compare-lines mark { padding: 0 0.1rem; }
`;

export interface ConflictProps {
  session: AdminSession;
  file: string;
  mine: string;
  theirs: string;
  theirsVersion: string;
  merged: string | null;
  /** What the person submitted: kept in the form, which sends it again against the version on disk now. */
  fields: PostFields;
  body: string;
}

/** One line of a version, and whether the other version lacks it. */
interface ComparedLine {
  text: string;
  changed: boolean;
}

/** The lines of `mine` and of `theirs`, each marked where it is not common to both (a line diff, LF line ends). */
export function compareLines(mine: string, theirs: string): { mine: ComparedLine[]; theirs: ComparedLine[] } {
  const mineLines = linesOf(mine);
  const theirLines = linesOf(theirs);
  const result = { mine: [] as ComparedLine[], theirs: [] as ComparedLine[] };
  for (const chunk of diffComm(mineLines, theirLines)) {
    if (chunk.common) {
      for (const text of chunk.common) {
        result.mine.push({ text, changed: false });
        result.theirs.push({ text, changed: false });
      }
    } else {
      for (const text of chunk.buffer1 ?? []) result.mine.push({ text, changed: true });
      for (const text of chunk.buffer2 ?? []) result.theirs.push({ text, changed: true });
    }
  }
  return result;
}

function linesOf(text: string): string[] {
  const lines = unixLines(text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function Version({ id, label, lines }: { id: string; label: string; lines: ComparedLine[] }) {
  const changed = lines.filter((line) => line.changed).length;
  return (
    <section class="admin-compare-version" aria-labelledby={`${id}-label`}>
      <h2 id={`${id}-label`}>{label}</h2>
      <p class="admin-hint" id={`${id}-count`}>
        {changed === 0 ? 'No line differs from the other version.' : `${changed} ${changed === 1 ? 'line differs' : 'lines differ'} from the other version, marked "changed".`}
      </p>
      <ol class="admin-compare-lines" id={id} aria-describedby={`${id}-count`}>
        {lines.map((line, index) => (
          <li key={index}>
            {line.changed ? (
              <>
                <strong class="admin-compare-marker">changed</strong>
                <mark>{line.text === '' ? '(empty line)' : line.text}</mark>
              </>
            ) : (
              line.text
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ConflictPage({ session, file, mine, theirs, theirsVersion, merged, fields, body }: ConflictProps) {
  const compared = compareLines(mine, theirs);
  return (
    <Layout title="The post changed meanwhile" session={session} section="posts">
      <link rel="stylesheet" href={CONFLICT_CSS_PATH} />
      <h1>The post changed meanwhile</h1>
      <p role="alert" class="admin-problem">
        <code>{file}</code> was changed on disk after you opened it, in the same places as your changes. Nothing was
        saved. Your text is kept below: compare the two versions and choose what to keep.
      </p>
      <div class="admin-compare">
        <Version id="conflict-mine" label="Your version" lines={compared.mine} />
        <Version id="conflict-theirs" label="The version on disk now" lines={compared.theirs} />
      </div>
      {merged !== null && (
        <p>
          <label for="conflict-merged">Both changes together (they do not overlap), to copy from</label>
          <textarea id="conflict-merged" rows={16} readOnly>
            {merged}
          </textarea>
        </p>
      )}
      <form method="post" action="/admin/posts/save" class="admin-form">
        <h2>Your text</h2>
        <CsrfField session={session} />
        <input type="hidden" name="file" value={file} />
        <input type="hidden" name="version" value={theirsVersion} />
        <input type="hidden" name="base_text" value={theirs} />
        {FIELD_NAMES.filter((name) => name !== 'title').map((name) => (
          <input key={name} type="hidden" name={name} value={name === 'tags' ? fields.tags.join(', ') : fields[name]} />
        ))}
        {fields.draft && <input type="hidden" name="draft" value="on" />}
        <p>
          <label for="conflict-title">Title</label>
          <input type="text" id="conflict-title" name="title" value={fields.title} />
        </p>
        <p>
          <label for="conflict-body">Text (Markdown), as you typed it: change it here if you like</label>
          <textarea id="conflict-body" name="body" rows={16}>
            {body}
          </textarea>
        </p>
        <p class="admin-actions">
          <button type="submit">Save my version over the one on disk</button>
        </p>
      </form>
      <p>
        <a href={`/admin/posts/edit?file=${encodeURIComponent(file)}`}>Open the version on disk instead (what you typed here is not kept)</a>
      </p>
    </Layout>
  );
}
