// /admin/audit and /admin/audit.csv (docs/admin.md "Users, invitations and the audit log"): the account store's
// audit log, newest first, 100 a page (`?page=`), and every event as CSV (src/kit/csv.ts: RFC 4180, formulas
// defused), read 500 at a time as it is sent.
import { Readable } from 'node:stream';
import { csvRow } from '../../kit/csv.js';
import type { AuditEvent } from '../accounts/account.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer } from '../render.js';
import { AuditPage } from './audit-views.js';

export const AUDIT_PATH = '/admin/audit';
export const AUDIT_CSV_PATH = '/admin/audit.csv';
export const AUDIT_PAGE_SIZE = 100;

/** The columns of the export. */
export const AUDIT_COLUMNS = ['at', 'user', 'event', 'subject', 'network'] as const;

const CSV_BATCH = 500;
const BYTE_ORDER_MARK = '\uFEFF';

export function createAuditPages(deps: { store: Pick<AccountStore, 'listAudit'> }): AdminRoute[] {
  const { store } = deps;

  const list: AdminPage = async (request, session) => {
    const asked = Number(new URLSearchParams(request.query).get('page') ?? '1');
    const page = Number.isSafeInteger(asked) && asked >= 1 ? asked : 1;
    // One more than a page: whether there is an older page.
    const events = await store.listAudit(AUDIT_PAGE_SIZE + 1, (page - 1) * AUDIT_PAGE_SIZE);
    return htmlAnswer(200, <AuditPage session={session} events={events.slice(0, AUDIT_PAGE_SIZE)} page={page} hasOlder={events.length > AUDIT_PAGE_SIZE} />);
  };

  const exportCsv: AdminPage = async () => {
    // The first batch is read before the answer starts, so that a store out of reach is a 503, not a cut download.
    const first = await store.listAudit(CSV_BATCH, 0);
    return {
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8; header=present', 'content-disposition': 'attachment; filename="postbox-audit.csv"' },
      body: Readable.from(csvChunks(store, first), { objectMode: false }),
    };
  };

  return [
    { path: AUDIT_PATH, methods: { GET: list } },
    { path: AUDIT_CSV_PATH, methods: { GET: exportCsv } },
  ];
}

/** One CSV row of `event`: its time in UTC (ISO 8601), who, what, whom, the network. */
export function auditCsvRow(event: AuditEvent): string {
  return csvRow([new Date(event.at).toISOString(), event.user ?? '', event.event, event.subject ?? '', event.network ?? '']);
}

/**
 * The export, newest first, one batch of events a chunk. An event appended while it is read moves the later
 * batches by one, so the row at a batch's edge may come twice; none is left out.
 */
async function* csvChunks(store: Pick<AccountStore, 'listAudit'>, first: AuditEvent[]): AsyncGenerator<string> {
  let chunk = BYTE_ORDER_MARK + csvRow(AUDIT_COLUMNS);
  let batch = first;
  let offset = 0;
  for (;;) {
    chunk += batch.map(auditCsvRow).join('');
    yield chunk;
    chunk = '';
    if (batch.length < CSV_BATCH) return;
    offset += batch.length;
    batch = await store.listAudit(CSV_BATCH, offset);
  }
}
