// A real `postbox serve` process (node dist/cli.js), its listening addresses read from its JSON log lines.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

/** The repository root, where `dist/cli.js` is built by `npm run build`. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

/** One pino JSON line from the process's stdout. */
export type LogLine = Record<string, unknown>;

export interface PostboxProcess {
  /** Service name ("forms", "blog") to its address, e.g. "http://127.0.0.1:40123". */
  addresses: Record<string, string>;
  logs: LogLine[];
  /** Resolves with the first log line from index `since` on matching `predicate`, failing after a bounded wait. */
  waitForLog(what: string, predicate: (line: LogLine) => boolean, options?: { since?: number; timeoutMs?: number }): Promise<LogLine>;
  /** SIGTERM, then SIGKILL if it has not exited within the shutdown grace. */
  stop(): Promise<void>;
}

/** Starts `postbox serve --config <configFile>` and waits until every service in `services` listens. */
export async function startPostbox(configFile: string, services: string[]): Promise<PostboxProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const output: string[] = [];
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  createInterface({ input: child.stdout }).on('line', (line) => {
    output.push(line);
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      // not a log line; kept in `output` for error messages
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => output.push(line));

  const stop = async () => {
    if (exitCode !== undefined) return;
    child.kill('SIGTERM');
    const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killed);
  };

  const addresses: Record<string, string> = {};
  try {
    await waitFor(`postbox to listen (${services.join(', ')})`, () => {
      if (exitCode !== undefined) {
        throw new Error(`postbox serve exited with ${exitCode} before listening:\n${output.slice(-20).join('\n')}`);
      }
      for (const line of logs) {
        if (line.event === 'listening') addresses[String(line.service)] = String(line.address);
      }
      return services.every((service) => service in addresses) ? true : undefined;
    }, 30_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    addresses,
    logs,
    waitForLog: (what, predicate, options = {}) =>
      waitFor(`a log line: ${what}`, () => logs.slice(options.since ?? 0).find(predicate), options.timeoutMs ?? 15_000),
    stop,
  };
}

/** Whether `line` is the request log line of `method path` (forms-service.md: one line per request). */
export function isRequestLine(line: LogLine, method: string, path: string, status?: number): boolean {
  return line.method === method && line.path === path && (status === undefined || line.status === status);
}
