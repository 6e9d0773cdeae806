// `postbox bounces list [--format text|json]` and `postbox bounces remove ADDRESS` (docs/bounces.md "Suppression"):
// the suppression list of data_dir/bounces, or of the PostgreSQL tables with `[state] backend = "postgres"`, read and
// changed beside a running `serve`, which sees a removal within a second.
import type { Backend } from '../adapters/backend.js';
import type { Suppression } from '../bounces/bounce-store.js';

export const BOUNCES_LIST_USAGE = `  postbox bounces list [--format text|json] [--config FILE]
                                  the suppressed addresses: address, kind, since, reason
  postbox bounces remove ADDRESS [--config FILE]
                                  take an address off the suppression list
`;

export interface BouncesListIo {
  out(text: string): void;
  error(text: string): void;
}

/** A bounces command line, read. */
export type BouncesListCommand = { action: 'list'; format: 'text' | 'json' } | { action: 'remove'; address: string };

/** `args` and `--format` as a command, or what is wrong with them; nothing is read yet. */
export function parseBouncesListCommand(args: readonly string[], options: { format: string | undefined }): BouncesListCommand | { problem: string } {
  const [action, address, ...rest] = args;
  if (rest.length > 0) return { problem: `unexpected "${rest.join(' ')}"` };
  switch (action) {
    case 'list': {
      const format = options.format ?? 'text';
      if (address !== undefined) return { problem: 'bounces list takes no address' };
      return format === 'text' || format === 'json' ? { action, format } : { problem: `--format is text or json, not "${format}"` };
    }
    case 'remove':
      if (address === undefined || address.trim() === '') return { problem: 'bounces remove takes the address to take off the list' };
      return options.format === undefined ? { action, address: address.trim() } : { problem: '--format goes with bounces list' };
    default:
      return { problem: action === undefined ? 'bounces needs classify, list or remove' : `unknown bounces command "${action}"` };
  }
}

/** Runs the command on the backend the command opened; the exit code: 0 done, 1 no such address (or the records cannot be reached). */
export async function runBouncesListCommand(command: BouncesListCommand, backend: Pick<Backend, 'suppressions' | 'ready'>, io: BouncesListIo): Promise<number> {
  const ready = await backend.ready().catch((error: Error) => error);
  if (ready instanceof Error) {
    io.error(`postbox: ${ready.message}\n`);
    return 1;
  }
  if (command.action === 'remove') {
    if (!(await backend.suppressions.remove(command.address))) {
      io.error(`postbox: ${command.address} is not on the suppression list ("postbox bounces list" shows it)\n`);
      return 1;
    }
    io.out(`${command.address.toLowerCase()}: taken off the suppression list; mail to it is sent again\n`);
    return 0;
  }
  const list = await backend.suppressions.list();
  io.out(command.format === 'json' ? `${JSON.stringify(list.map(toJson), null, 2)}\n` : formatSuppressions(list));
  return 0;
}

/** One line per address, newest first: address, kind, since (RFC 3339 UTC), reason; the count first. */
export function formatSuppressions(list: readonly Suppression[]): string {
  const lines = [`${list.length} suppressed`];
  const width = Math.max(0, ...list.map((entry) => entry.address.length));
  for (const entry of list) lines.push(`${entry.address.padEnd(width)}  ${entry.kind.padEnd(9)}  ${new Date(entry.at).toISOString()}  ${entry.reason} (${entry.source})`);
  return `${lines.join('\n')}\n`;
}

function toJson(entry: Suppression) {
  return { address: entry.address, kind: entry.kind, at: new Date(entry.at).toISOString(), reason: entry.reason, source: entry.source };
}
