// The failed-mail page: one row per message, no address. The last error is a code (safe-reason.ts), and anything
// shaped like an address in it is blanked all the same, since a failed file may have been edited by hand.
import { describeOutgoing } from '../../queue/outgoing.js';
import type { FailedMessage } from '../../queue/store.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { RowButton } from '../views/row-button.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';

export interface FailedRow {
  id: string;
  kind: string;
  form: string;
  /** The host of the inbox of a blog's activity (docs/activitypub.md "Delivery"): its federation part. */
  server?: string;
  failedAt: string;
  age: string;
  tries: number;
  lastError: string;
}

/** What the page shows of `message`: nothing that names a person. */
export function toFailedRow(message: FailedMessage, now: number): FailedRow {
  return {
    id: message.id,
    kind: describeOutgoing(message.message),
    form: message.message.form || '-',
    ...(message.message.channel === 'activitypub' ? { server: hostOf(message.message.inbox) } : {}),
    failedAt: new Date(message.failedAt).toISOString(),
    age: ageOf(now - message.failedAt),
    tries: message.attempts,
    lastError: withoutAddresses(message.lastError),
  };
}

/** The server an inbox is on: its host, not the path that names a person. */
function hostOf(inbox: string): string {
  try {
    return new URL(inbox).host;
  } catch {
    return '-';
  }
}

/** `text` with every address-shaped word replaced. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]');
}

/** "40 s", "12 min", "5 h", "3 days". */
export function ageOf(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

export function FailedMailPage({ session, rows, notice }: { session: AdminSession; rows: FailedRow[] | undefined; notice?: string }) {
  return (
    <Layout title="Failed mail" session={session} section="failed">
      <h1>Failed mail</h1>
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      {rows === undefined ? (
        <p>The mail queue is off ([mail] queue = false): a message that cannot be sent fails at once and is not kept, so there is nothing to retry.</p>
      ) : rows.length === 0 ? (
        <p>No failed mail: every message was sent or is still being tried.</p>
      ) : (
        <>
          <p>
            {rows.length} {rows.length === 1 ? 'message was' : 'messages were'} given up after every retry. Once the cause is fixed (the mail server's settings, a chat token), put them back in
            the queue.
          </p>
          <form method="post" action="/admin/failed" class="admin-actions">
            <CsrfField session={session} />
            <input type="hidden" name="all" value="yes" />
            <button type="submit">Retry all</button>
          </form>
          {rows.some((row) => row.server === undefined) && <FailedTable session={session} rows={rows.filter((row) => row.server === undefined)} />}
          {rows.some((row) => row.server !== undefined) && (
            <>
              <h2>Federation</h2>
              <p>The blog's activities for its followers on the fediverse, given up at their server.</p>
              <FailedTable session={session} rows={rows.filter((row) => row.server !== undefined)} federation />
            </>
          )}
        </>
      )}
    </Layout>
  );
}

/** One table of failed messages; the federation's names each activity's server instead of a form. */
function FailedTable({ session, rows, federation = false }: { session: AdminSession; rows: FailedRow[]; federation?: boolean }) {
  return (
    <AdminTable
      caption="Newest first"
      headings={['Message', 'Kind', federation ? 'Server' : 'Form', 'Given up', 'Tries', 'Last error', <span class="admin-visually-hidden">Action</span>]}
    >
      {rows.map((row) => (
        <tr>
          <td>
            <code>{row.id}</code>
          </td>
          <td>{row.kind}</td>
          <td>{federation ? row.server : row.form}</td>
          <td>
            <Time at={row.failedAt} zone={session.timeZone} /> ({row.age} ago)
          </td>
          <td>{row.tries}</td>
          <td>
            <code>{row.lastError}</code>
          </td>
          <td>
            <RowButton session={session} action="/admin/failed" name="id" value={row.id} label="Retry" rowName={row.id} />
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
