// `postbox queue list | retry ID | retry --all-failed | drop ID` (docs/delivery.md "Watching the queue"): the
// owner's view of data_dir/queue, or of the queue table with `[state] backend = "postgres"`. It works on the same
// files (rows) as a running `serve`, which picks up what is put back and skips what is dropped.
import type { Backend } from '../adapters/backend.js';
import { describeOutgoing } from '../queue/outgoing.js';
import type { FailedMessage, PendingMessage, QueueOwnerStore } from '../queue/store.js';

export const QUEUE_USAGE = `  postbox queue list [--config FILE]
                                  the mail queue's pending and failed messages
  postbox queue retry ID|--all-failed [--config FILE]
                                  put failed messages back (a pending one: try it now)
  postbox queue drop ID [--config FILE]
                                  remove a pending or failed message for good
`;

export interface QueueCommandIo {
  out(text: string): void;
  error(text: string): void;
  now(): number;
}

/** A queue command line, read: `retry` without an id puts every failed message back. */
export type QueueCommand = { action: 'list' } | { action: 'retry'; id?: string } | { action: 'drop'; id: string };

/** `args` and `--all-failed` as a QueueCommand, or what is wrong with them; nothing is read or reached yet. */
export function parseQueueCommand(args: readonly string[], options: { allFailed: boolean }): QueueCommand | { problem: string } {
  const [action, id, ...rest] = args;
  if (rest.length > 0) return { problem: `unexpected "${rest.join(' ')}"` };
  switch (action) {
    case 'list':
      return id !== undefined || options.allFailed ? { problem: 'queue list takes no ID or --all-failed' } : { action };
    case 'retry':
      if (options.allFailed === (id !== undefined)) return { problem: 'queue retry takes one message ID or --all-failed' };
      return id === undefined ? { action } : { action, id };
    case 'drop':
      return id === undefined || options.allFailed ? { problem: 'queue drop takes one message ID' } : { action, id };
    default:
      return { problem: action === undefined ? 'queue needs list, retry or drop' : `unknown queue command "${action}"` };
  }
}

/** Runs one queue command on the backend the command opened; the exit code: 0 done, 1 no such message (or the records cannot be reached). */
export async function runQueueCommand(command: QueueCommand, backend: Pick<Backend, 'queue' | 'ready'>, io: QueueCommandIo): Promise<number> {
  const ready = await backend.ready().catch((error: Error) => error);
  if (ready instanceof Error) {
    io.error(`postbox: ${ready.message}\n`);
    return 1;
  }
  return runOn(backend.queue, command, io);
}

async function runOn(store: QueueOwnerStore, command: QueueCommand, io: QueueCommandIo): Promise<number> {
  switch (command.action) {
    case 'list':
      io.out(formatListing(await store.listPending(), await store.listFailed(), io.now()));
      return 0;
    case 'retry':
      return command.id === undefined ? retryAllFailed(store, io) : retryOne(store, command.id, io);
    case 'drop': {
      const where = await store.drop(command.id);
      if (!where) return noSuchMessage(command.id, io);
      io.out(`${command.id}: dropped (it was ${where})\n`);
      return 0;
    }
  }
}

async function retryOne(store: QueueOwnerStore, id: string, io: QueueCommandIo): Promise<number> {
  if (await store.retryFailed(id, io.now())) {
    io.out(`${id}: back in the queue; a running serve sends it within seconds\n`);
    return 0;
  }
  if ((await store.listPending()).some((message) => message.id === id)) {
    await store.requestRetry();
    io.out(`${id}: pending; a running serve tries every pending message now\n`);
    return 0;
  }
  return noSuchMessage(id, io);
}

async function retryAllFailed(store: QueueOwnerStore, io: QueueCommandIo): Promise<number> {
  let count = 0;
  for (const message of await store.listFailed()) {
    if (await store.retryFailed(message.id, io.now())) count += 1;
  }
  io.out(`${count} failed message${count === 1 ? '' : 's'} back in the queue\n`);
  return 0;
}

function noSuchMessage(id: string, io: QueueCommandIo): number {
  io.error(`postbox: no queued message with id ${id} ("postbox queue list" shows them)\n`);
  return 1;
}

/** One line per message: id, state, channel, form, age, tries and the last error. No address, no field. */
export function formatListing(pending: readonly PendingMessage[], failed: readonly FailedMessage[], now: number): string {
  const lines = [`${pending.length} pending, ${failed.length} failed`];
  for (const message of pending) {
    const tries = message.attempt ? `, ${message.attempt.attempts} tr${message.attempt.attempts === 1 ? 'y' : 'ies'}, next ${new Date(message.attempt.nextAttemptAt).toISOString()}, last error ${message.attempt.lastError}` : '';
    lines.push(`${message.id}  pending  ${describeOutgoing(message.message)}  ${message.message.form || '-'}  queued ${age(now - message.createdAt)} ago${tries}`);
  }
  for (const message of failed) {
    lines.push(`${message.id}  failed   ${describeOutgoing(message.message)}  ${message.message.form || '-'}  given up ${age(now - message.failedAt)} ago after ${message.attempts} tr${message.attempts === 1 ? 'y' : 'ies'}: ${message.lastError}`);
  }
  return `${lines.join('\n')}\n`;
}

function age(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
