// `postbox subscribers export --form PATH|--list ID [--format csv|json]` (docs/newsletter.md "Exporting the
// addresses"): the confirmed subscribers of one newsletter form or list, the subscriber log folded (unsubscribed
// addresses left out), on stdout for another tool. `postbox subscribers tag` sets the tags of one subscriber
// (docs/newsletter.md "Subscriber attributes"). `postbox subscribers import` adds the addresses of a CSV file with
// their tags, never confirming on anyone's behalf (docs/newsletter.md "Importing addresses").
import { readFile } from 'node:fs/promises';
import type * as CsvParse from 'csv-parse/sync';
import type { Config, SubscriberLogRef } from '../config/config.js';
import { csvRow } from '../kit/csv.js';
import { lazyModule } from '../kit/lazy-module.js';
import { addressesThatLeft, IMPORT_SOURCE, importStepOf, readImportRows, type ImportStanding } from '../newsletter/subscriber-import.js';
import type { Subscriber } from '../newsletter/subscriber-events.js';
import { normalTags } from '../newsletter/attributes.js';
import type { Backend } from '../adapters/backend.js';

export const SUBSCRIBERS_USAGE = `  postbox subscribers export --form PATH|--list ID [--format csv|json] [--config FILE]
                                  the confirmed subscribers of a newsletter form or list
  postbox subscribers tag --form PATH|--list ID ADDRESS [TAG...] [--config FILE]
                                  set the tags of a subscriber (none given: no tags)
  postbox subscribers import --form PATH|--list ID FILE [--config FILE]
                                  add the addresses of a CSV file (columns email, tags, lang), marked as imported
`;

const csvParse = lazyModule<typeof CsvParse>('csv-parse/sync');

export interface SubscribersCommandIo {
  out(text: string): void;
  error(text: string): void;
  /** The time a tag change is recorded at. */
  now(): number;
}

/** A subscribers command line, read: `export` of one form (or one list) in one format, or `tag` of one address. */
export interface SubscribersCommand {
  form?: string;
  list?: string;
  format: 'csv' | 'json';
  /** `tag`: the address and its tags, in one spelling. */
  tag?: { email: string; tags: string[] };
  /** `import`: the CSV file to read. */
  importFile?: string;
}

/** `args` and the options as a SubscribersCommand, or what is wrong with them; nothing is read yet. */
export function parseSubscribersCommand(args: readonly string[], options: { form: string | undefined; list?: string | undefined; format: string | undefined }): SubscribersCommand | { problem: string } {
  const { form, list, format = 'csv' } = options;
  const [action, email, ...tags] = args;
  if (action === 'tag') {
    if ((form === undefined) === (list === undefined)) return { problem: 'subscribers tag needs --form PATH or --list ID' };
    if (email === undefined) return { problem: 'subscribers tag needs the ADDRESS' };
    if (options.format !== undefined) return { problem: 'subscribers tag takes no --format' };
    const where = list === undefined ? { form } : { list };
    return { ...where, format: 'csv', tag: { email, tags: normalTags(tags) } };
  }
  if (action === 'import') {
    if ((form === undefined) === (list === undefined)) return { problem: 'subscribers import needs --form PATH or --list ID' };
    if (email === undefined || tags.length > 0) return { problem: 'subscribers import needs one FILE' };
    if (options.format !== undefined) return { problem: 'subscribers import takes no --format' };
    return { ...(list === undefined ? { form } : { list }), format: 'csv', importFile: email };
  }
  if (args.length !== 1 || action !== 'export') return { problem: 'subscribers takes one command: export, tag or import' };
  if ((form === undefined) === (list === undefined)) return { problem: 'subscribers export needs --form PATH or --list ID' };
  if (format !== 'csv' && format !== 'json') return { problem: `--format is csv or json, not "${format}"` };
  return list === undefined ? { form, format } : { list, format };
}

/** Runs `subscribers export` or `tag` on the backend the command opened; the exit code: 0 done, 1 no such newsletter form or list (or, to tag, no such subscriber). */
export async function runSubscribersCommand(command: SubscribersCommand, config: Config, backend: Backend, io: SubscribersCommandIo): Promise<number> {
  const { format } = command;
  const log = logOf(command, config, io);
  if (!log) return 1;
  const ready = await backend.ready().catch((error: Error) => error);
  if (ready instanceof Error) {
    io.error(`postbox: ${ready.message}\n`);
    return 1;
  }
  if (command.importFile !== undefined) return importSubscribers(command.importFile, log, backend, io);
  if (command.tag) {
    const { email, tags } = command.tag;
    if (!(await backend.newsletter.setTags(log, email, tags, new Date(io.now()).toISOString()))) {
      io.error(`postbox: ${email} is not subscribed to ${log.path}\n`);
      return 1;
    }
    io.out(`${email}: ${tags.length > 0 ? tags.join(', ') : 'no tags'}\n`);
    return 0;
  }
  const subscribers: Subscriber[] = await backend.newsletter.listSubscribers(log);
  io.out(format === 'json' ? `${JSON.stringify(subscribers, null, 2)}\n` : toCsv(subscribers));
  return 0;
}

/** The log of the form or list asked for, or undefined once the problem is told. */
function logOf(command: SubscribersCommand, config: Config, io: SubscribersCommandIo): SubscriberLogRef | undefined {
  if (command.list !== undefined) {
    const list = config.newsletter.lists.find((entry) => entry.id === command.list);
    if (!list) io.error(`postbox: no newsletter list "${command.list}" (lists: ${config.newsletter.lists.map((entry) => entry.id).join(', ') || 'none'})\n`);
    return list?.log;
  }
  const form = config.forms.find((entry) => entry.path === command.form);
  if (form?.type === 'newsletter') return form;
  const newsletters = config.forms.filter((entry) => entry.type === 'newsletter').map((entry) => entry.path);
  io.error(`postbox: no newsletter form at ${command.form} (newsletter forms: ${newsletters.join(', ') || 'none'})\n`);
  return undefined;
}

/** RFC 4180: CRLF line ends, a header row, fields quoted when they hold a comma, quote or line break. */
function toCsv(subscribers: readonly Subscriber[]): string {
  const rows = [['email', 'subscribed_at'], ...subscribers.map((subscriber) => [subscriber.email, subscriber.subscribed_at])];
  return rows.map(csvRow).join('');
}

/**
 * Adds the addresses of the CSV `file` to the list `log` (docs/newsletter.md "Importing addresses"): new ones as
 * subscriptions marked `source = "import"`, the tags of those already on it merged; an address that left the list
 * or is suppressed is not put back. Prints the counts. No mail is sent.
 */
async function importSubscribers(file: string, log: SubscriberLogRef, backend: Backend, io: SubscribersCommandIo): Promise<number> {
  let records: Array<Record<string, string>>;
  try {
    records = csvParse().parse(await readFile(file), { columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    io.error(`postbox: cannot read ${file} as CSV: ${(error as Error).message}\n`);
    return 1;
  }
  if (records.length > 0 && !('email' in records[0]!)) {
    io.error(`postbox: ${file} has no "email" column (its header row names the columns: email, and optionally tags and lang)\n`);
    return 1;
  }
  const { rows, invalid, duplicates } = readImportRows(records);
  const current = new Map((await backend.newsletter.listSubscribers(log)).map((subscriber) => [subscriber.email.toLowerCase(), subscriber.tags ?? []] as const));
  const left = addressesThatLeft(await backend.dashboard.readSubscriberLines(log));
  const at = new Date(io.now()).toISOString();
  const counts = { added: 0, retagged: 0, subscribed: 0, left: 0, suppressed: 0 };
  for (const row of rows) {
    const key = row.email.toLowerCase();
    const tags = current.get(key);
    const standing: ImportStanding =
      tags !== undefined ? { on: 'list', tags } : left.has(key) ? { on: 'left' } : (await backend.suppressions.isSuppressed(row.email)) ? { on: 'suppressed' } : { on: 'nothing' };
    const step = importStepOf(row, standing);
    if ('keep' in step) {
      counts[step.keep] += 1;
    } else if ('retag' in step) {
      await backend.newsletter.setTags(log, row.email, step.retag.tags, at);
      counts.retagged += 1;
    } else {
      // Another process may have added it meanwhile: then it is on the list already, and its tags are merged.
      const added = await backend.newsletter.join(log, row.email, at, { source: IMPORT_SOURCE, ...(row.lang ? { lang: row.lang } : {}) });
      if (row.tags.length > 0) await backend.newsletter.setTags(log, row.email, row.tags, at);
      counts[added ? 'added' : 'retagged'] += 1;
    }
  }
  io.out(
    `${file} into ${log.path}: ${counts.added} added, ${counts.retagged} already subscribed with tags merged, ${counts.subscribed} already subscribed unchanged, ` +
      `${counts.left} not added (they unsubscribed), ${counts.suppressed} not added (suppressed), ${duplicates} repeated rows merged, ${invalid.length} rows without an address` +
      `${invalid.length > 0 ? ` (lines ${invalid.slice(0, 10).join(', ')}${invalid.length > 10 ? ', ...' : ''})` : ''}\n`,
  );
  return 0;
}
