// `postbox queue list | retry ID | retry --all-failed | drop ID` (docs/delivery.md "Watching the queue"): the
// owner's view of data_dir/queue, or of the queue table with `[state] backend = "postgres"`. It works on the same
// files (rows) as a running `serve`, which picks up what is put back and skips what is dropped.
import type { Config } from './config/config.js';
import { describeOutgoing } from './queue/outgoing.js';
import { createSilentLogger } from './log.js';
import type { QueueOwnerStore } from './queue/shared-store.js';
import type { FailedMessage, PendingMessage } from './queue/store.js';
import { createPostgresQueueStore } from './storage/postgres/queue-store.js';
import { createPostgresState, migratedForCommand } from './storage/postgres/state.js';
import { createQueueFiles, queueDirOf } from './storage/queue-files.js';
import { UnavailableError } from './unavailable-error.js';

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

/** Runs one queue command; the exit code: 0 done, 1 no such message, 2 a usage error. */
export async function runQueueCommand(args: readonly string[], options: { allFailed: boolean }, config: Config, io: QueueCommandIo): Promise<number> {
  if (config.state.backend !== 'postgres') return runOn(createQueueFiles(queueDirOf(config.data_dir)), args, options, io);
  // `[state] backend = "postgres"`: the table every replica's queue shares.
  const state = createPostgresState(config.state.url!, createSilentLogger());
  try {
    await migratedForCommand(state);
    return await runOn(createPostgresQueueStore(state, { clock: io.now }), args, options, io);
  } catch (error) {
    if (!(error instanceof UnavailableError)) throw error;
    io.error('postbox: PostgreSQL ([state] url) cannot be reached; try again once it is up\n');
    return 1;
  } finally {
    await state.close();
  }
}

async function runOn(store: QueueOwnerStore, args: readonly string[], options: { allFailed: boolean }, io: QueueCommandIo): Promise<number> {
  const [action, id, ...rest] = args;
  if (rest.length > 0) return usage(io, `unexpected "${rest.join(' ')}"`);
  if (action === 'list' && (id !== undefined || options.allFailed)) return usage(io, 'queue list takes no ID or --all-failed');
  switch (action) {
    case 'list':
      io.out(formatListing(await store.listPending(), await store.listFailed(), io.now()));
      return 0;
    case 'retry':
      if (options.allFailed === (id !== undefined)) return usage(io, 'queue retry takes one message ID or --all-failed');
      return id === undefined ? retryAllFailed(store, io) : retryOne(store, id, io);
    case 'drop': {
      if (id === undefined || options.allFailed) return usage(io, 'queue drop takes one message ID');
      const where = await store.drop(id);
      if (!where) return noSuchMessage(id, io);
      io.out(`${id}: dropped (it was ${where})\n`);
      return 0;
    }
    default:
      return usage(io, action === undefined ? 'queue needs list, retry or drop' : `unknown queue command "${action}"`);
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

function usage(io: QueueCommandIo, reason: string): number {
  io.error(`postbox: ${reason}\n\nUsage:\n${QUEUE_USAGE}`);
  return 2;
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
