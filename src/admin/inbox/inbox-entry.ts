// One submission of a form's archive as the inbox shows it (docs/admin.md "Inbox"). Pure: lines come in as
// text with their place in the file.
import { createHash } from 'node:crypto';
import { foldCase } from '../../blog/text/fold-case.js';

/** The fields of an archive line (docs/forms-api.md "Delivery"); anything else on the line is kept as text. */
export interface InboxEntry {
  /**
   * Files: `<byte offset>-<12 hex digits of the line's SHA-256>`, where the line was and which line it was.
   * PostgreSQL: the row's id.
   */
  id: string;
  received_at: string;
  fields: Record<string, string>;
}

/** The id of the line `text` at `offset`. */
export function entryIdOf(offset: number, text: string): string {
  return `${offset}-${lineDigest(text)}`;
}

export function lineDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** Splits an id into its offset and digest; undefined for anything an inbox link could not hold. */
export function parseEntryId(id: string): { offset: number; digest: string } | undefined {
  const match = /^(\d{1,15})-([0-9a-f]{12})$/.exec(id);
  return match ? { offset: Number(match[1]), digest: match[2]! } : undefined;
}

/** The entry of an archive line, or undefined for a line that is not a JSON object (a torn or foreign line). */
export function parseEntry(offset: number, text: string): InboxEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return entryOfRecord(entryIdOf(offset, text), value);
}

/** The entry `id` of an archive record (a parsed line, or a row's data), or undefined when it is not an object. */
export function entryOfRecord(id: string, value: unknown): InboxEntry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    fields[key] = typeof field === 'string' ? field : JSON.stringify(field);
  }
  return { id, received_at: fields.received_at ?? '', fields };
}

/** The search terms of a query: words, case-folded like the blog's `q`; an entry matches when it holds every one. */
export function searchTermsOf(query: string | undefined): string[] {
  return foldCase(query ?? '')
    .split(/\s+/)
    .filter((term) => term !== '')
    .slice(0, 10);
}

/** Whether every term is a substring of one of the entry's values (name, email, message, ...). */
export function entryMatches(entry: InboxEntry, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const text = foldCase(Object.values(entry.fields).join('\n'));
  return terms.every((term) => text.includes(term));
}
