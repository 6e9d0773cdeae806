// `postbox subscribers export --form PATH|--list ID [--format csv|json]` (docs/newsletter.md "Exporting the
// addresses"): the confirmed subscribers of one newsletter form or list, the subscriber log folded (unsubscribed
// addresses left out), on stdout for another tool. `postbox subscribers tag` sets the tags of one subscriber
// (docs/newsletter.md "Subscriber attributes").
import type { Config, SubscriberLogRef } from '../config/config.js';
import { csvRow } from '../kit/csv.js';
import type { Subscriber } from '../newsletter/subscriber-events.js';
import { normalTags } from '../newsletter/attributes.js';
import type { Backend } from '../adapters/backend.js';

export const SUBSCRIBERS_USAGE = `  postbox subscribers export --form PATH|--list ID [--format csv|json] [--config FILE]
                                  the confirmed subscribers of a newsletter form or list
  postbox subscribers tag --form PATH|--list ID ADDRESS [TAG...] [--config FILE]
                                  set the tags of a subscriber (none given: no tags)
`;

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
  if (args.length !== 1 || action !== 'export') return { problem: 'subscribers takes one command: export or tag' };
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
