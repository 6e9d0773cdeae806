// The inbox's pages (docs/admin.md "Inbox"): the forms with what waits in their quarantine, one form's submissions,
// one submission in full. Every value of a submission is rendered as text by preact, which escapes it: a submitted
// "<script>" shows as those characters.
import { Fragment } from 'preact';
import type { InboxEntry } from '../inbox/inbox-entry.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import { excerptOf, listQueryOf } from './inbox-forms.js';

/** A form's Spam view (docs/admin.md "Quarantine") and how many submissions wait in it. */
export interface SpamLink {
  href: string;
  waiting: number;
}

/** A form as the forms page lists it; `key` only for a form with an archive. */
export interface InboxFormListing {
  path: string;
  type: string;
  key?: string;
  /** Without a quarantine (the inbox alone), no column of spam. */
  spam?: SpamLink;
}

/** What a list page says above the submissions after a deletion. */
export type InboxNotice = 'deleted' | 'missing';

const NOTICES: Record<InboxNotice, string> = {
  deleted: 'The submission was deleted.',
  missing: 'That submission was already deleted.',
};

/** The link to a form's Spam view: "3 waiting", which names the form to screen readers. */
function SpamCount({ spam, formPath }: { spam: SpamLink; formPath: string }) {
  return (
    <a href={spam.href}>
      {spam.waiting} waiting<span class="admin-visually-hidden"> in the spam of {formPath}</span>
    </a>
  );
}

/** /admin/inbox: every form with what waits in its quarantine, linking to the inbox of those with an archive. */
export function InboxFormsPage({ session, forms }: { session: AdminSession; forms: readonly InboxFormListing[] }) {
  const others = forms.filter((form) => form.key === undefined && form.type !== 'newsletter');
  const withSpam = forms.some((form) => form.spam !== undefined);
  return (
    <Layout title="Inbox" session={session} section="inbox">
      <h1>Inbox</h1>
      {!forms.some((form) => form.key !== undefined) && <p>No form keeps an archive of its submissions, so there is no inbox to show here yet.</p>}
      {forms.length > 0 && (
        <AdminTable caption="The forms, and the submissions taken for spam in each" headings={withSpam ? ['Form', 'Type', 'Spam'] : ['Form', 'Type']}>
          {forms.map((form) => (
            <tr key={form.path}>
              <td>{form.key === undefined ? form.path : <a href={`/admin/inbox/${form.key}`}>{form.path}</a>}</td>
              <td>{form.type}</td>
              {form.spam && (
                <td>
                  <SpamCount spam={form.spam} formPath={form.path} />
                </td>
              )}
            </tr>
          ))}
        </AdminTable>
      )}
      {others.length > 0 && (
        <>
          <h2>Forms without an archive</h2>
          <p>
            These forms send their submissions on without keeping them: {others.map((form) => form.path).join(', ')}. To see them here, set{' '}
            <code>archive = "&lt;file&gt;.jsonl"</code> on the form in the configuration (a file in <code>data_dir</code>) and restart: submissions
            from then on are kept and listed.
          </p>
        </>
      )}
    </Layout>
  );
}

export interface SubmissionListProps {
  session: AdminSession;
  formPath: string;
  formKey: string;
  entries: readonly InboxEntry[];
  query: string;
  page: number;
  hasNext: boolean;
  notice?: InboxNotice;
  /** The form's Spam view; none without a quarantine. */
  spam?: SpamLink;
}

/** /admin/inbox/<form>: a page of submissions, newest first, with the search box and the export. */
export function SubmissionListPage({ session, formPath, formKey, entries, query, page, hasNext, notice, spam }: SubmissionListProps) {
  const base = `/admin/inbox/${formKey}`;
  const searching = query.trim() !== '';
  return (
    <Layout title={searching ? `Search in ${formPath}` : `Inbox of ${formPath}`} session={session} section="inbox">
      <h1>Inbox of {formPath}</h1>
      {notice && (
        <p role="status" class="admin-notice">
          {NOTICES[notice]}
        </p>
      )}
      <form method="get" action={base} class="admin-form admin-actions" role="search">
        <div>
          <label for="inbox-search">Search</label>
          <input type="text" id="inbox-search" name="q" value={query} />
        </div>
        <button type="submit">Search</button>
        <a href={`${base}/export.csv`} class="admin-button-link" download>
          Export CSV
        </a>
      </form>
      {spam && (
        <p>
          Spam: <SpamCount spam={spam} formPath={formPath} /> in the quarantine.
        </p>
      )}
      {entries.length === 0 ? (
        <p>{searching ? `No submission matches "${query}".` : page > 1 ? 'No submissions on this page.' : 'No submissions yet.'}</p>
      ) : (
        <AdminTable
          caption={
            (searching ? `Submissions matching "${query}", newest first` : 'Submissions, newest first') + (page > 1 ? `, page ${page}` : '')
          }
          headings={['Received', 'Name', 'Email', 'Message']}
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <a href={`${base}/${entry.id}`}>
                  <Time at={entry.received_at} zone={session.timeZone} />
                </a>
              </td>
              <td>{entry.fields.name ?? ''}</td>
              <td>{entry.fields.email ?? ''}</td>
              <td>{excerptOf(entry.fields.message)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      {(page > 1 || hasNext) && (
        <nav aria-label="Pages" class="admin-actions">
          {page > 1 && (
            <a href={`${base}${listQueryOf(query, page - 1)}`} rel="prev">
              Newer submissions
            </a>
          )}
          {hasNext && (
            <a href={`${base}${listQueryOf(query, page + 1)}`} rel="next">
              Older submissions
            </a>
          )}
        </nav>
      )}
    </Layout>
  );
}

/** /admin/inbox/<form>/<id>: every field of one submission, and "Delete". */
/** A file an archive line lists (src/forms/archive.ts), as the submission page shows it. */
export interface ListedFile {
  id: string;
  filename: string;
  type: string;
  size: number;
}

export function SubmissionPage({ session, formPath, formKey, entry, files }: { session: AdminSession; formPath: string; formKey: string; entry: InboxEntry; files: readonly ListedFile[] }) {
  const base = `/admin/inbox/${formKey}`;
  const { received_at: receivedAt, message, attachments: _listed, ...others } = entry.fields;
  return (
    <Layout title={`Submission to ${formPath}`} session={session} section="inbox">
      <h1>Submission to {formPath}</h1>
      <dl class="admin-facts">
        <dt>Received</dt>
        <dd>
          <Time at={receivedAt} zone={session.timeZone} precision="second" />
        </dd>
        {Object.entries(others).map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        {message !== undefined && (
          <>
            <dt>message</dt>
            <dd class="admin-message">{message}</dd>
          </>
        )}
        {files.length > 0 && (
          <>
            <dt>files</dt>
            <dd>
              <ul>
                {files.map((file) => (
                  <li key={file.id}>
                    <a href={`${base}/${entry.id}/files/${file.id}`} download={file.filename}>
                      {file.filename}
                    </a>{' '}
                    ({file.type}, {file.size} bytes)
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      <form method="post" action={`${base}/${entry.id}/delete`} class="admin-actions">
        <CsrfField session={session} />
        <button type="submit">Delete</button>
        <a href={base}>Back to the inbox</a>
      </form>
    </Layout>
  );
}
