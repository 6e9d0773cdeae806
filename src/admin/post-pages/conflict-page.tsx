// 409: the file changed on disk since the editor opened it (docs/admin.md "Posts"). Nothing was written; the page
// shows both versions, and the merge of the two when the changes do not overlap, each with a way to go on.
import type { AdminSession } from '../sessions.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import type { PostFields } from '../posts/post-files.js';
import { FIELD_NAMES } from './form-fields.js';

export interface ConflictProps {
  session: AdminSession;
  file: string;
  mine: string;
  theirs: string;
  theirsVersion: string;
  merged: string | null;
  /** What the person submitted: "Save my version" sends it again against the version on disk now. */
  fields: PostFields;
  body: string;
}

export function ConflictPage({ session, file, mine, theirs, theirsVersion, merged, fields, body }: ConflictProps) {
  return (
    <Layout title="The post changed meanwhile" session={session} section="posts">
      <h1>The post changed meanwhile</h1>
      <p role="alert" class="admin-problem">
        <code>{file}</code> was changed on disk after you opened it. Nothing was saved. Compare the two versions and
        choose what to keep.
      </p>
      <p>
        <label for="conflict-mine">Your version</label>
        <textarea id="conflict-mine" rows={16} readOnly>
          {mine}
        </textarea>
      </p>
      <p>
        <label for="conflict-theirs">The version on disk now</label>
        <textarea id="conflict-theirs" rows={16} readOnly>
          {theirs}
        </textarea>
      </p>
      {merged !== null && (
        <p>
          <label for="conflict-merged">Both changes together (they do not overlap), to copy from</label>
          <textarea id="conflict-merged" rows={16} readOnly>
            {merged}
          </textarea>
        </p>
      )}
      <form method="post" action="/admin/posts/save" class="admin-form">
        <CsrfField session={session} />
        <input type="hidden" name="file" value={file} />
        <input type="hidden" name="version" value={theirsVersion} />
        <input type="hidden" name="base_text" value={theirs} />
        {FIELD_NAMES.map((name) => (
          <input key={name} type="hidden" name={name} value={name === 'tags' ? fields.tags.join(', ') : fields[name]} />
        ))}
        {fields.draft && <input type="hidden" name="draft" value="on" />}
        <input type="hidden" name="body" value={body} />
        <button type="submit">Save my version over the one on disk</button>
      </form>
      <p>
        <a href={`/admin/posts/edit?file=${encodeURIComponent(file)}`}>Open the version on disk instead</a>
      </p>
    </Layout>
  );
}
