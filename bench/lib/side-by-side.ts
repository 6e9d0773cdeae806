// Alternating rounds: every contender gets the same load in each round, in a rotated order, so that drift on a
// shared machine hits all of them alike; figures are ratios taken round by round.
import { readCpuMs } from './cpu-time.js';
import { runLoad, type LoadOptions, type LoadRequest, type LoadResult } from './load.js';

export interface Contender {
  name: string;
  /** Base URL, e.g. http://127.0.0.1:4000; the request path is appended. */
  base: string;
  /** The server's process, to measure the CPU time it spent per request. */
  pid?: number;
  /** Runs before and after each of this contender's load runs (e.g. to check that every mail arrived). */
  beforeRun?: () => Promise<void>;
  afterRun?: (result: LoadResult) => Promise<void>;
}

export interface SideBySideOptions extends LoadOptions {
  rounds: number;
  warmupSeconds: number;
}

/** A load run plus the CPU time the server spent per request in it (when its pid is known, on Linux). */
export interface RunResult extends LoadResult {
  cpuUsPerRequest: number | undefined;
}

/** Results by contender name, one per round. */
export type RoundResults = Record<string, RunResult[]>;

/** Warms every contender once, then runs `rounds` rounds, rotating who goes first. */
export async function runSideBySide(
  contenders: Contender[],
  request: Omit<LoadRequest, 'url'> & { path: string },
  options: SideBySideOptions,
): Promise<RoundResults> {
  const { path, ...rest } = request;
  const results: RoundResults = Object.fromEntries(contenders.map((contender) => [contender.name, []]));
  if (options.warmupSeconds > 0) {
    for (const contender of contenders) {
      await contender.beforeRun?.();
      const warm = await runLoad({ ...rest, url: contender.base + path }, { ...options, seconds: options.warmupSeconds });
      await contender.afterRun?.(warm);
    }
  }
  for (let round = 0; round < options.rounds; round += 1) {
    const order = contenders.map((_, index) => contenders[(index + round) % contenders.length] as Contender);
    for (const contender of order) {
      await contender.beforeRun?.();
      const cpuBefore = cpuOf(contender);
      const result = await runLoad({ ...rest, url: contender.base + path }, options);
      const run = withCpu(result, cpuBefore, cpuOf(contender));
      await contender.afterRun?.(result);
      (results[contender.name] as RunResult[]).push(run);
    }
  }
  return results;
}

/**
 * The same contenders loaded at the same moment, each by a load generator of its own with its share of the
 * connections, `rounds` times. Servers pinned to one core then share it, so whatever else runs on the machine
 * during a round weighs on all of them alike: their CPU per request is compared at one moment, not seconds
 * apart. Requests per second mean little here (the scheduler shares the core); the CPU ratio is the figure.
 */
export async function runAtOnce(
  contenders: Contender[],
  request: Omit<LoadRequest, 'url'> & { path: string },
  options: SideBySideOptions,
): Promise<RoundResults> {
  const { path, ...rest } = request;
  const share = { ...options, connections: Math.max(1, Math.round(options.connections / contenders.length)) };
  const results: RoundResults = Object.fromEntries(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const cpuBefore = contenders.map(cpuOf);
    const runs = await Promise.all(contenders.map((contender) => runLoad({ ...rest, url: contender.base + path }, share)));
    contenders.forEach((contender, index) => {
      (results[contender.name] as RunResult[]).push(withCpu(runs[index] as LoadResult, cpuBefore[index], cpuOf(contender)));
    });
  }
  return results;
}

/** CPU milliseconds the contender's server has used so far, when its pid is known (and /proc exists). */
function cpuOf(contender: Contender): number | undefined {
  return contender.pid === undefined ? undefined : readCpuMs(contender.pid);
}

/** A load run with the server's CPU per request between two readings of cpuOf. */
function withCpu(result: LoadResult, cpuBefore: number | undefined, cpuAfter: number | undefined): RunResult {
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined || result.requests === 0 ? undefined : ((cpuAfter - cpuBefore) * 1000) / result.requests;
  return { ...result, cpuUsPerRequest };
}

/** Per-round ratio `subject / reference` of requests per second, and their median. */
export function ratioOf(results: RoundResults, subject: string, reference: string): { median: number; rounds: number[] } {
  const subjectRuns = results[subject] ?? [];
  const referenceRuns = results[reference] ?? [];
  const rounds = subjectRuns.map((run, index) => run.rps / (referenceRuns[index]?.rps ?? NaN));
  return { median: median(rounds), rounds };
}

/** Per-round ratio of requests per server CPU-second, `subject / reference`; undefined without CPU figures. */
export function cpuRatioOf(results: RoundResults, subject: string, reference: string): { median: number; rounds: number[] } | undefined {
  const subjectRuns = results[subject] ?? [];
  const referenceRuns = results[reference] ?? [];
  const rounds: number[] = [];
  for (const [index, run] of subjectRuns.entries()) {
    const referenceCpu = referenceRuns[index]?.cpuUsPerRequest;
    if (run.cpuUsPerRequest === undefined || referenceCpu === undefined) return undefined;
    rounds.push(referenceCpu / run.cpuUsPerRequest);
  }
  return rounds.length > 0 ? { median: median(rounds), rounds } : undefined;
}

/** The median of a list (mean of the middle two for even lengths). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median req/s, latencies and server CPU per request over the rounds, for the information columns. */
export function summarize(runs: RunResult[]): { rps: number; p99Ms: number; p50Ms: number; cpuUsPerRequest: number | undefined } {
  const cpu = runs.map((run) => run.cpuUsPerRequest).filter((value): value is number => value !== undefined);
  return {
    rps: median(runs.map((run) => run.rps)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    cpuUsPerRequest: cpu.length === runs.length && cpu.length > 0 ? median(cpu) : undefined,
  };
}
