// Importing addresses from a CSV file (docs/newsletter.md "Importing addresses"): which rows are addresses, with
// their tags and language, the same address on several rows merged into one, and what the import comes to against
// the list as it is. An import never confirms on a person's behalf: an address that left the list (or is
// suppressed) is never put back, and every address added is marked `source = "import"`. Pure.
import { isEmailAddress } from '../kit/email-address.js';
import { languageTagOf, normalTags } from './attributes.js';

/** The `source` an imported subscription carries. */
export const IMPORT_SOURCE = 'import';

/** One address to import: as first written, with the tags of all its rows. */
export interface ImportRow {
  email: string;
  tags: string[];
  lang?: string;
}

/** The rows of a file, read: the addresses (each once), the rows that are not, and how many rows repeated an address. */
export interface ImportRows {
  rows: ImportRow[];
  /** 1-based line numbers of the file (the header is line 1) whose `email` is not an address. */
  invalid: number[];
  duplicates: number;
}

/** Tags in a cell: separated by commas, semicolons or "|". */
function tagsOf(cell: string | undefined): string[] {
  return normalTags((cell ?? '').split(/[;|]/));
}

/** `records` (a CSV's rows by column name, the header being line 1) as the addresses to import. */
export function readImportRows(records: ReadonlyArray<Readonly<Record<string, string | undefined>>>): ImportRows {
  const byAddress = new Map<string, ImportRow>();
  const invalid: number[] = [];
  let duplicates = 0;
  records.forEach((record, index) => {
    const email = (record.email ?? '').trim();
    if (!isEmailAddress(email)) {
      invalid.push(index + 2);
      return;
    }
    const key = email.toLowerCase();
    const tags = tagsOf(record.tags);
    const lang = languageTagOf(record.lang);
    const seen = byAddress.get(key);
    if (seen) {
      duplicates += 1;
      seen.tags = normalTags([...seen.tags, ...tags]);
      seen.lang ??= lang;
      return;
    }
    byAddress.set(key, { email, tags, ...(lang ? { lang } : {}) });
  });
  return { rows: [...byAddress.values()], invalid, duplicates };
}

/** What the list says of an address before the import. */
export type ImportStanding = { on: 'list'; tags: readonly string[] } | { on: 'left' } | { on: 'suppressed' } | { on: 'nothing' };

/** What to do with one row: add it, merge its tags into a subscription, or leave it. */
export type ImportStep = { add: ImportRow } | { retag: ImportRow } | { keep: 'subscribed' | 'left' | 'suppressed' };

/** The step for `row` given its standing; a subscriber whose tags already hold the row's is kept as it is. */
export function importStepOf(row: ImportRow, standing: ImportStanding): ImportStep {
  if (standing.on === 'left' || standing.on === 'suppressed') return { keep: standing.on };
  if (standing.on === 'nothing') return { add: row };
  const tags = normalTags([...standing.tags, ...row.tags]);
  return tags.length === standing.tags.length ? { keep: 'subscribed' } : { retag: { ...row, tags } };
}

/** The addresses (lower-cased) whose last event in the log lines of one list is `unsubscribed`: they left it. */
export function addressesThatLeft(lines: readonly unknown[]): Set<string> {
  const last = new Map<string, string>();
  for (const line of lines) {
    if (typeof line !== 'object' || line === null) continue;
    const { email, event } = line as Record<string, unknown>;
    if (typeof email !== 'string') continue;
    if (event === 'unsubscribed') last.set(email.toLowerCase(), 'left');
    else if (event === undefined || event === 'subscribed') last.set(email.toLowerCase(), 'on');
  }
  return new Set([...last].filter(([, state]) => state === 'left').map(([email]) => email));
}
