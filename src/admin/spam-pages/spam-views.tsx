// The Spam view of a form (docs/admin.md "Quarantine"): its quarantined submissions, newest first, each with when it
// arrived, who sent it, the message, why it was taken for spam in words, and "Not spam". Every value of a submission
// is rendered as text by preact, which escapes it, as the inbox does.
import type { QuarantinedSubmission } from '../../forms/spam/quarantine.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import { reasonWords } from './reason-words.js';

/** What the page says after "Not spam" redirected back (`?notice=<key>`): fixed sentences, nothing from the address. */
const NOTICES = {
  released: 'Delivered.',
  gone: 'Already handled.',
  failed: 'Could not be delivered; it stays here.',
  not_running: 'The forms service does not run in this process, so nothing can be delivered from here; it stays here.',
  deleted: 'Deleted.',
} as const;

export type SpamNotice = keyof typeof NOTICES;

/** The notice `key` names, or undefined. */
export function spamNoticeOf(key: string | null): SpamNotice | undefined {
  return key !== null && Object.hasOwn(NOTICES, key) ? (key as SpamNotice) : undefined;
}

export interface SpamListProps {
  session: AdminSession;
  formPath: string;
  /** The address of this view: /admin/spam/<key>. */
  base: string;
  /** The form's inbox, when it keeps an archive. */
  inboxHref?: string;
  entries: readonly QuarantinedSubmission[];
  /** The id this page lists from (older than it), or undefined on the first page. */
  before?: string;
  /** The id the next page lists from, when there are older entries. */
  next?: string;
  waiting: number;
  /** Whether "Not spam" can deliver from this process. */
  canRelease: boolean;
  notice?: SpamNotice;
  /** With the notice `deleted`: how many went. */
  deleted?: number;
}

export function SpamListPage({ session, formPath, base, inboxHref, entries, before, next, waiting, canRelease, notice, deleted }: SpamListProps) {
  return (
    <Layout title={`Spam of ${formPath}`} session={session} section="inbox">
      <h1>Spam of {formPath}</h1>
      {notice && (
        <p role="status" class="admin-notice">
          {notice === 'deleted' && deleted !== undefined ? `Deleted ${deleted} ${deleted === 1 ? 'submission' : 'submissions'}.` : NOTICES[notice]}
        </p>
      )}
      <p>
        Submissions taken for spam are kept here, undelivered, for the form’s <code>spam_keep_days</code>. <strong>Not spam</strong> delivers one now, as
        an accepted submission is delivered, and takes it off this list; <strong>Delete</strong> forgets one for good.
      </p>
      {!canRelease && <p class="admin-hint">The forms service does not run in this process, so Not spam cannot deliver from here.</p>}
      <p class="admin-actions">
        {inboxHref ? <a href={inboxHref}>The inbox of {formPath}</a> : <a href="/admin/inbox">Back to the forms</a>}
      </p>
      {before === undefined && entries.length > 0 && (
        <form method="post" action={base} class="admin-actions">
          <CsrfField session={session} />
          <input type="hidden" name="action" value="delete_all" />
          <input type="hidden" name="up_to" value={entries[0]!.id} />
          <button type="submit">Delete all {waiting}</button>
        </form>
      )}
      {entries.length === 0 ? (
        <p>{before === undefined ? 'Nothing is waiting in the quarantine.' : 'No older submissions.'}</p>
      ) : (
        <AdminTable
          caption={`${waiting} waiting, newest first${before === undefined ? '' : ', older ones'}`}
          headings={['Received', 'Name', 'Email', 'Message', 'Why', <span class="admin-visually-hidden">Actions</span>]}
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Time at={entry.receivedAt} zone={session.timeZone} />
              </td>
              <td>{entry.submission.name ?? ''}</td>
              <td>{entry.submission.email}</td>
              <td class="admin-message">{entry.submission.message ?? ''}</td>
              <td>
                <ul>
                  {entry.reasons.map((reason) => (
                    <li key={reason}>{reasonWords(reason)}</li>
                  ))}
                </ul>
              </td>
              <td>
                <form method="post" action={base} class="admin-inline-form">
                  <CsrfField session={session} />
                  <input type="hidden" name="id" value={entry.id} />
                  {before !== undefined && <input type="hidden" name="before" value={before} />}
                  {canRelease && (
                    <button type="submit">
                      Not spam
                      <span class="admin-visually-hidden"> from {entry.submission.email}</span>
                    </button>
                  )}
                  <button type="submit" name="action" value="delete">
                    Delete
                    <span class="admin-visually-hidden"> the submission from {entry.submission.email}</span>
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {(before !== undefined || next !== undefined) && (
        <nav aria-label="Pages" class="admin-actions">
          {before !== undefined && (
            <a href={base}>
              Newest submissions
            </a>
          )}
          {next !== undefined && (
            <a href={`${base}?before=${encodeURIComponent(next)}`} rel="next">
              Older submissions
            </a>
          )}
        </nav>
      )}
    </Layout>
  );
}
