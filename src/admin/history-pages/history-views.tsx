// The History pages of a post (docs/admin.md "Posts in git"): the list of its versions (time, author, what was
// done), and one version: its text as it was (escaped, never rendered), what changed since (lines marked with a
// word as well as a colour), and "Restore this version".
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import { hasChanges, type DiffLine } from './line-diff.js';
import type { HistoryEntry } from './post-history.js';

/** Where the pages' stylesheet is served (history-pages.tsx): the CSP runs no inline style. */
export const HISTORY_CSS_PATH = '/admin/posts/history.css';

export const HISTORY_CSS = `.admin-history-text, .admin-history-diff { margin: 0.5rem 0 1rem; padding: 0.5rem; border: 1px solid #8886; font: 0.9rem/1.4 ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.admin-history-diff { list-style: none; padding-left: 0.5rem; }
.admin-history-diff li { min-height: 1.4em; }
.admin-history-marker { display: inline-block; min-width: 5.5em; font: 700 0.75rem/1 system-ui, sans-serif; text-transform: uppercase; }
.admin-history-removed { background: #fde2e2; color: #5c0000; }
.admin-history-added { background: #dff5e1; color: #003d0a; }
.admin-history-folded { font-style: italic; }
`;

/** The address of the history of `file`, or of its version `id`. */
export function historyPath(file: string, id?: string): string {
  return id === undefined
    ? `/admin/posts/history?${new URLSearchParams({ file }).toString()}`
    : `/admin/posts/history/version?${new URLSearchParams({ file, id }).toString()}`;
}

const editPath = (file: string) => `/admin/posts/edit?${new URLSearchParams({ file }).toString()}`;

export interface HistoryListProps {
  session: AdminSession;
  file: string;
  title: string;
  entries: readonly HistoryEntry[];
  /** The most a list shows; when it holds that many, older versions are left out. */
  limit: number;
}

export function HistoryListPage({ session, file, title, entries, limit }: HistoryListProps) {
  const heading = `History of ${title || file}`;
  return (
    <Layout title={heading} session={session} section="posts">
      <h1>{heading}</h1>
      <p>
        File: <code>{file}</code> <a href={editPath(file)}>Back to the editor</a>
      </p>
      {entries.length === 0 ? (
        <p>No version of this post is recorded yet: its first change through /admin (or its first commit) starts the history.</p>
      ) : (
        <AdminTable
          caption={entries.length >= limit ? `The newest ${entries.length} versions, newest first` : `${entries.length} ${entries.length === 1 ? 'version' : 'versions'}, newest first`}
          headings={['Time', 'Author', 'Change', <span class="admin-visually-hidden">Version</span>]}
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Time at={entry.at} zone={session.timeZone} />
              </td>
              <td>{entry.author}</td>
              <td>{entry.message}</td>
              <td>
                <a href={historyPath(file, entry.id)}>
                  View <code>{entry.shortId}</code>
                </a>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}

export interface VersionProps {
  session: AdminSession;
  /** The post's file now. */
  file: string;
  entry: HistoryEntry;
  /** The version's text; undefined when the version has no file (the change deleted it). */
  text: string | undefined;
  diff: readonly DiffLine[];
  /** The token of the file now: a restore presents it (a file changed since is not overwritten). */
  currentVersion: string;
}

const MARKERS = { removed: 'removed', added: 'added' } as const;

function Diff({ lines }: { lines: readonly DiffLine[] }) {
  if (!hasChanges(lines)) return <p>This version is the same as the current one.</p>;
  return (
    <>
      <p class="admin-hint" id="history-diff-hint">
        Lines marked &ldquo;removed&rdquo; are in this version and not in the current one; lines marked &ldquo;added&rdquo; are in the current one only.
      </p>
      <ol class="admin-history-diff" aria-describedby="history-diff-hint">
        {lines.map((line, index) =>
          line.kind === 'folded' ? (
            <li key={index} class="admin-history-folded">
              {`\u2026 ${line.count} unchanged ${line.count === 1 ? 'line' : 'lines'} \u2026`}
            </li>
          ) : line.kind === 'same' ? (
            <li key={index}>
              <span class="admin-history-marker" />
              {line.text}
            </li>
          ) : (
            <li key={index} class={`admin-history-${line.kind}`}>
              <strong class="admin-history-marker">{MARKERS[line.kind]}</strong>
              {line.text === '' ? '(empty line)' : line.text}
            </li>
          ),
        )}
      </ol>
    </>
  );
}

export function VersionPage({ session, file, entry, text, diff, currentVersion }: VersionProps) {
  const heading = `Version ${entry.shortId} of ${file}`;
  return (
    <Layout title={heading} session={session} section="posts">
      <link rel="stylesheet" href={HISTORY_CSS_PATH} />
      <h1>{heading}</h1>
      <p>
        <Time at={entry.at} zone={session.timeZone} /> by {entry.author}: {entry.message}
        {entry.file !== file && (
          <>
            {' '}
            (the post was then the file <code>{entry.file}</code>)
          </>
        )}
      </p>
      <p>
        <a href={historyPath(file)}>Back to the history</a> <a href={editPath(file)}>Open the editor</a>
      </p>
      {text === undefined ? (
        <p>This change removed the file: there is no text to show or restore.</p>
      ) : (
        <>
          <h2>Changes since this version</h2>
          <Diff lines={diff} />
          <form method="post" action="/admin/posts/history/restore" class="admin-form">
            <CsrfField session={session} />
            <input type="hidden" name="file" value={file} />
            <input type="hidden" name="id" value={entry.id} />
            <input type="hidden" name="version" value={currentVersion} />
            <p class="admin-hint" id="restore-hint">
              Writes this version as <code>{file}</code>, as a new change; the current one stays in the history.
            </p>
            <p class="admin-actions">
              <button type="submit" aria-describedby="restore-hint">
                Restore this version
              </button>
            </p>
          </form>
          <h2>The text of this version</h2>
          <pre class="admin-history-text">
            {text}
          </pre>
        </>
      )}
    </Layout>
  );
}
