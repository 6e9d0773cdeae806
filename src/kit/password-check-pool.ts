// Password checks on threads of their own (docs/admin.md "Signing in"). A check is scrypt at about 100 ms and 32 MiB;
// Node's asynchronous scrypt runs on libuv's thread pool, whose 4 threads every file read and write waits for, so a
// burst of sign-ins would stall the forms. Here each check runs crypto.scryptSync on a worker thread: at most
// `threads` at a time, at most `queue` more waiting in order, and any beyond that refused at once
// (PasswordCheckBusyError) rather than queued without end.
//
// The worker's code is a string evaluated by the Worker (`eval: true`), using only node:crypto and
// node:worker_threads, so there is no second file to find: it runs the same from src/ and from a one-file bundle.
// Workers start at the first check, hold the process only while they check (as any I/O under way does), and end at
// close().
import { Worker } from 'node:worker_threads';
import { scryptCheckOf, type PasswordHash } from './password-hash.js';

export const DEFAULT_CHECK_THREADS = 2;
export const DEFAULT_CHECK_QUEUE = 8;

/** All threads are checking and the queue is full: answer "busy" now (429 with Retry-After), nothing was checked. */
export class PasswordCheckBusyError extends Error {
  constructor() {
    super('every password check thread is busy and the queue is full');
    this.name = 'PasswordCheckBusyError';
  }
}

/** When one check ran on its thread (milliseconds since the epoch, fractional), for tests and measurements. */
export interface CheckSpan {
  startedAt: number;
  endedAt: number;
}

export interface PasswordCheckPoolOptions {
  /** Checks running at a time, each on a thread of its own (default 2). */
  threads?: number;
  /** Checks waiting for a thread (default 8); one more is refused with PasswordCheckBusyError. */
  queue?: number;
  /** Called after each check with when it ran on its thread. */
  onChecked?(span: CheckSpan): void;
}

export interface PasswordCheckPool {
  /**
   * Whether `password` matches `stored`, compared in constant time on one of the pool's threads. Rejects at once
   * with PasswordCheckBusyError when the threads are busy and the queue is full, and after close().
   */
  check(stored: PasswordHash, password: string): Promise<boolean>;
  /** Refuses the waiting checks and ends the threads (a check under way is abandoned). */
  close(): Promise<void>;
}

/** The worker: one check per message, answered with the outcome and when it ran. */
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync, timingSafeEqual } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const clock = () => performance.timeOrigin + performance.now();
parentPort.on('message', (job) => {
  const startedAt = clock();
  try {
    const derived = scryptSync(job.password, job.salt, job.expected.length, job.options);
    const ok = timingSafeEqual(derived, job.expected);
    parentPort.postMessage({ ok, startedAt, endedAt: clock() });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error), startedAt, endedAt: clock() });
  }
});
`;

interface Job {
  message: ReturnType<typeof scryptCheckOf>;
  resolve(ok: boolean): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  job?: Job;
}

interface Answer extends CheckSpan {
  ok?: boolean;
  error?: string;
}

export function createPasswordCheckPool(options: PasswordCheckPoolOptions = {}): PasswordCheckPool {
  const threadCount = options.threads ?? DEFAULT_CHECK_THREADS;
  const queueLength = options.queue ?? DEFAULT_CHECK_QUEUE;
  if (!Number.isInteger(threadCount) || threadCount < 1) throw new RangeError(`threads must be a whole number from 1, got ${threadCount}`);
  if (!Number.isInteger(queueLength) || queueLength < 0) throw new RangeError(`queue must be a whole number from 0, got ${queueLength}`);
  const threads = new Set<Thread>();
  const waiting: Job[] = [];
  let closed = false;

  const start = (): Thread => {
    // No tsx or other flags of this process: the worker's code is plain JavaScript.
    const worker = new Worker(WORKER_CODE, { eval: true, execArgv: [] });
    const thread: Thread = { worker };
    threads.add(thread);
    worker.on('message', (answer: Answer) => {
      const job = thread.job;
      thread.job = undefined;
      if (job) {
        options.onChecked?.({ startedAt: answer.startedAt, endedAt: answer.endedAt });
        if (answer.error !== undefined) job.reject(new Error(`password check failed: ${answer.error}`));
        else job.resolve(answer.ok === true);
      }
      next(thread);
    });
    worker.on('error', (error) => {
      thread.job?.reject(error instanceof Error ? error : new Error(String(error)));
      thread.job = undefined;
    });
    worker.on('exit', () => {
      threads.delete(thread);
      thread.job?.reject(new Error('the password check thread ended'));
      thread.job = undefined;
      // A thread that died leaves its place to a new one for whatever waits.
      if (!closed && waiting.length > 0) next(start());
    });
    // After the listeners, which would hold it again.
    worker.unref();
    return thread;
  };

  /** Gives `thread` the next waiting check; a thread holds the process only while it checks. */
  const next = (thread: Thread) => {
    const job = waiting.shift();
    if (!job) {
      thread.worker.unref();
      return;
    }
    thread.job = job;
    thread.worker.ref();
    thread.worker.postMessage(job.message);
  };

  return {
    check(stored, password) {
      if (closed) return Promise.reject(new PasswordCheckBusyError());
      let idle: Thread | undefined;
      for (const thread of threads) if (!thread.job) idle = thread;
      if (!idle && threads.size < threadCount) idle = start();
      if (!idle && waiting.length >= queueLength) return Promise.reject(new PasswordCheckBusyError());
      return new Promise<boolean>((resolve, reject) => {
        waiting.push({ message: scryptCheckOf(stored, password), resolve, reject });
        if (idle) next(idle);
      });
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new PasswordCheckBusyError());
      await Promise.all([...threads].map((thread) => thread.worker.terminate()));
    },
  };
}
