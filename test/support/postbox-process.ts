// Runs the built CLI (`node dist/cli.js`) as a real process. `npm test` builds dist/ before the tests run;
// run `npm run build` first when running a subset. A missing build fails the test with that instruction.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_PATH = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Throws a clear error when dist/cli.js has not been built. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run "npm run build" first ("npm test" does)`);
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `postbox <args>` to completion (bounded by `timeoutMs`, then killed) and returns its output. */
export async function runPostbox(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessResult> {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: REPO_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(killer);
  return { code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

/** One pino JSON line from stdout. */
export type ProcessLogLine = Record<string, unknown>;

export interface ServeProcess {
  child: ChildProcess;
  /** Service name ("forms", "blog") to its address, from the `listening` log lines. */
  addresses: Record<string, string>;
  /** Every JSON line from stdout so far. */
  logs: ProcessLogLine[];
  /** stdout lines that were not JSON, and stderr lines. */
  otherOutput: string[];
  /** Waits (bounded) for the first log line from index `since` (default 0) on matching `predicate`. */
  waitForLog(
    what: string,
    predicate: (line: ProcessLogLine) => boolean,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<ProcessLogLine>;
  /** Sends `signal` (default SIGTERM) and waits for the exit, SIGKILL after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `postbox serve --config <file>` and waits until each of `services` logged
 * {"event":"listening","service":...,"address":...}. Fails with the process output when it exits first.
 */
export async function startPostboxServe(
  configFile: string,
  services: string[] = ['forms'],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, 'serve', '--config', configFile], {
    cwd: REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: ProcessLogLine[] = [];
  const otherOutput: string[] = [];
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as ProcessLogLine);
    } catch {
      otherOutput.push(line);
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => otherOutput.push(line));

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000) => {
    if (exit) return exit;
    child.kill(signal);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const result = await exited;
    clearTimeout(killer);
    return result;
  };

  const addresses: Record<string, string> = {};
  try {
    await waitFor(
      `postbox serve to listen (${services.join(', ')})`,
      () => {
        if (exit) {
          const output = [...logs.map((line) => JSON.stringify(line)), ...otherOutput].slice(-20).join('\n');
          throw new Error(`postbox serve exited (${exit.code ?? exit.signal}) before listening:\n${output}`);
        }
        for (const line of logs) {
          if (line.event === 'listening') addresses[String(line.service)] = String(line.address);
        }
        return services.every((service) => service in addresses) ? true : undefined;
      },
      options.timeoutMs ?? 30_000,
    );
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return {
    child,
    addresses,
    logs,
    otherOutput,
    waitForLog: (what, predicate, { since = 0, timeoutMs = 15_000 } = {}) =>
      waitFor(`log line: ${what}`, () => logs.slice(since).find(predicate), timeoutMs),
    stop,
  };
}

/** Whether `line` is the request log line of `method path` (docs/forms-api.md "Logs": one line per request). */
export function isRequestLine(line: ProcessLogLine, method: string, path: string, status?: number): boolean {
  return line.method === method && line.path === path && (status === undefined || line.status === status);
}
