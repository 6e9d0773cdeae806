// Child processes of the bench: postbox itself, the reference servers, the SMTP sink, the load generator.
// Each runs in its own process, so no two of them share an event loop; on a machine with two or more cores
// the servers are pinned to one core and the load generator to another (taskset), the same for every side.
// nice and taskset exec the command, so a child's pid is the pid of the process itself.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { openSync, closeSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/ is two levels below it). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where a process runs: its cores (`taskset -c`; undefined = any) and its niceness (`nice -n`; undefined = as the bench). */
export interface Placement {
  cpus: string | undefined;
  nice: number | undefined;
}

/** Placements of the servers and of the load generator (which the SMTP sink shares). */
export interface CorePlan {
  server: Placement;
  load: Placement;
}

/**
 * Servers on the last core, load generator (and SMTP sink) on the others; no pinning with one core, without
 * taskset, or with BENCH_PIN=0. BENCH_NICE=-10 (for example) runs every bench process at that niceness, so that
 * other work on a shared machine disturbs the rounds less (negative values need root).
 */
export function planCores(env: NodeJS.ProcessEnv = process.env): CorePlan {
  const cores = os.availableParallelism();
  const taskset = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  const nice = env.BENCH_NICE === undefined || env.BENCH_NICE === '' ? undefined : Number(env.BENCH_NICE);
  if (nice !== undefined && !Number.isInteger(nice)) throw new Error(`BENCH_NICE must be an integer, got "${env.BENCH_NICE}"`);
  if (env.BENCH_PIN === '0' || cores < 2 || !taskset) return { server: { cpus: undefined, nice }, load: { cpus: undefined, nice } };
  return { server: { cpus: String(cores - 1), nice }, load: { cpus: cores === 2 ? '0' : `0-${cores - 2}`, nice } };
}

/** Spawns `command args` under `taskset -c` and `nice -n` as the placement asks. */
export function spawnPinned(placement: Placement, command: string, args: string[], options: SpawnOptions): ChildProcess {
  const prefix: string[] = [];
  if (placement.nice !== undefined) prefix.push('nice', '-n', String(placement.nice));
  if (placement.cpus !== undefined) prefix.push('taskset', '-c', placement.cpus);
  const [first, ...rest] = [...prefix, command, ...args];
  return spawn(first as string, rest, options);
}

/** `node --import tsx <bench script>`: how the reference servers and probes run. */
export function benchScriptArgs(script: string, nodeFlags: string[] = []): string[] {
  return [...nodeFlags, '--import', 'tsx', path.join(REPO_ROOT, 'bench', script)];
}

export interface RunningPostbox {
  child: ChildProcess;
  pid: number;
  /** Bound addresses by service name, from the `listening` log lines. */
  addresses: Record<string, string>;
  logFile: string;
  spawnedAt: number;
  stop(): Promise<void>;
}

export interface PostboxOptions {
  configFile: string;
  logFile: string;
  services: Array<'forms' | 'blog'>;
  placement: Placement;
  /** When set, the server runs with --cpu-prof and writes its profile here on exit. */
  cpuProfileDir?: string;
  /** Resolve as soon as the process is spawned (the start-up bench polls for itself). */
  waitForListening?: boolean;
  /** More flags for node (the campaign bench traces garbage collection). */
  nodeFlags?: string[];
}

/**
 * Starts `dist/cli.js serve` with the engine flag its first line gives it (`--no-memory-reducer`), logs going to a file (as a user's
 * would), and waits for every listener.
 */
export async function startPostbox(options: PostboxOptions): Promise<RunningPostbox> {
  const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" first`);
  const flags = ['--no-memory-reducer', ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []), ...(options.nodeFlags ?? [])];
  const log = openSync(options.logFile, 'w');
  const spawnedAt = performance.now();
  const child = spawnPinned(options.placement, process.execPath, [...flags, cli, 'serve', '--config', options.configFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running: RunningPostbox = {
    child,
    pid: child.pid as number,
    addresses: {},
    logFile: options.logFile,
    spawnedAt,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  if (options.waitForListening === false) return running;
  try {
    running.addresses = await waitForListening(running, options.services, 120_000);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

/** Reads the log file until every service logged `{"event":"listening"}`; fails if the process exits first. */
export async function waitForListening(running: RunningPostbox, services: string[], timeoutMs: number): Promise<Record<string, string>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const addresses = readListening(running.logFile);
    if (services.every((service) => addresses[service])) return addresses;
    if (running.child.exitCode !== null) {
      throw new Error(`postbox exited with code ${running.child.exitCode}; log:\n${tail(running.logFile)}`);
    }
    if (performance.now() > deadline) throw new Error(`postbox did not listen within ${timeoutMs} ms; log:\n${tail(running.logFile)}`);
    await delay(10);
  }
}

function readListening(logFile: string): Record<string, string> {
  const addresses: Record<string, string> = {};
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"listening"')) continue;
    try {
      const record = JSON.parse(line) as { event?: string; service?: string; address?: string };
      if (record.event === 'listening' && record.service && record.address) addresses[record.service] = record.address;
    } catch {
      // a line still being written
    }
  }
  return addresses;
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
}

export interface RunningChild {
  child: ChildProcess;
  pid: number;
  /** What the child printed as its first line after "LISTENING " (its URL or port). */
  address: string;
  stop(): Promise<void>;
}

/** Starts a bench helper that prints "LISTENING <address>" once ready (reference servers, SMTP sink). */
export async function startHelper(script: string, args: string[], placement: Placement, ipc = false): Promise<RunningChild> {
  const child = spawnPinned(placement, process.execPath, [...benchScriptArgs(script), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? (['ipc'] as const) : [])],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not print LISTENING within 60 s`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = /^LISTENING (\S+)$/m.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before listening`));
    });
  });
  child.stdout?.resume();
  return {
    child,
    pid: child.pid as number,
    address,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size and its peak, in bytes, from /proc/<pid>/status (Linux); undefined elsewhere. */
export function readMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** True when `command` is on PATH. */
export function isInstalled(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
