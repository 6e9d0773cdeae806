// The CSV export of a form's archive (docs/admin.md "Inbox"): RFC 4180, UTF-8 with a byte order mark (Excel reads
// UTF-8 only with one; other readers skip it), CRLF, a header row of the archive's documented fields, formula
// cells neutralised (src/kit/csv.ts). Rows are made as the archive is read, oldest first, and handed out in chunks of
// about 64 KiB, so the export holds one chunk in memory whatever the archive's size.
import { Readable } from 'node:stream';
import { csvRow } from '../../kit/csv.js';
import type { InboxEntry } from '../inbox/inbox-entry.js';

/** The columns: the fields of an archive line (docs/forms-api.md "Delivery") but `form` and `type`, the same on every line. */
export const EXPORT_COLUMNS = ['received_at', 'name', 'email', 'service', 'message'] as const;

const BYTE_ORDER_MARK = '\uFEFF';
const CHUNK_CHARACTERS = 64 * 1024;

/** The export of `entries` as a stream of text chunks. */
export function createInboxCsv(entries: AsyncIterable<InboxEntry>): Readable {
  return Readable.from(csvChunks(entries), { objectMode: false });
}

async function* csvChunks(entries: AsyncIterable<InboxEntry>): AsyncGenerator<string> {
  let chunk = BYTE_ORDER_MARK + csvRow(EXPORT_COLUMNS);
  for await (const entry of entries) {
    chunk += csvRow(EXPORT_COLUMNS.map((column) => entry.fields[column] ?? ''));
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}
