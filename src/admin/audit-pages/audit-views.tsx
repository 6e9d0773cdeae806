// The audit log page: who did what to whom, when (in [admin] time_zone) and from which network, newest first, with a pager and
// the CSV export.
import type { AuditEvent } from '../accounts/account.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';

export interface AuditPageProps {
  session: AdminSession;
  events: readonly AuditEvent[];
  /** From 1, the newest. */
  page: number;
  hasOlder: boolean;
}

export function AuditPage({ session, events, page, hasOlder }: AuditPageProps) {
  return (
    <Layout title="Audit log" session={session} section="audit">
      <h1>Audit log</h1>
      <p>
        Who did what in the admin, newest first. <a href="/admin/audit.csv">Export CSV</a> (every event).
      </p>
      {events.length === 0 ? (
        <p>{page === 1 ? 'Nothing has been recorded yet.' : 'No events on this page.'}</p>
      ) : (
        <AdminTable caption={`Newest first, page ${page}`} headings={['When', 'Who', 'What', 'Whom', 'Network']}>
          {events.map((event) => (
            <tr>
              <td>
                <Time at={event.at} zone={session.timeZone} precision="second" />
              </td>
              <td>{event.user ?? '–'}</td>
              <td>{event.event}</td>
              <td>{event.subject ?? ''}</td>
              <td>{event.network ?? ''}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      {(page > 1 || hasOlder) && (
        <nav aria-label="Pages of the audit log" class="admin-pager">
          {page > 1 && <a href={page === 2 ? '/admin/audit' : `/admin/audit?page=${page - 1}`}>Newer events</a>}
          {page > 1 && hasOlder && ' '}
          {hasOlder && <a href={`/admin/audit?page=${page + 1}`}>Older events</a>}
        </nav>
      )}
    </Layout>
  );
}
