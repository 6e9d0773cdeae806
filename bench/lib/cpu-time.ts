// CPU time a server process (and its direct children, e.g. nginx workers) used, from /proc (Linux only):
// a per-request cost that another process competing for the same core does not distort.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` and its direct children in milliseconds, or undefined without /proc. */
export function readCpuMs(pid: number): number | undefined {
  try {
    let ticks = ticksOf(pid);
    for (const child of childrenOf(pid)) ticks += ticksOf(child);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function ticksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
