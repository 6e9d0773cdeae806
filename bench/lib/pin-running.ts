// Pins servers the bench did not spawn itself (PostgreSQL's postmaster and its children, redis-server) to the
// server cores, so that a cluster's every part competes for the same cores as the single process it is compared
// with. Processes forked later (PostgreSQL backends) inherit the affinity of their parent.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Placement } from './processes.js';

/** `taskset -a -p -c <cpus>` on `pid` and every process whose parent it is; nothing when nothing is pinned. */
export function pinRunningTree(pid: number, placement: Placement): void {
  if (placement.cpus === undefined) return;
  for (const target of [pid, ...childrenOf(pid)]) {
    spawnSync('taskset', ['-a', '-p', '-c', placement.cpus, String(target)], { stdio: 'ignore' });
  }
}

/** The parent of `pid` (from /proc/<pid>/stat), undefined when it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.parent;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statFields(readFileSync(`/proc/${name}/stat`, 'utf8'))?.parent === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** The parent pid of a /proc/<pid>/stat line (the command in parentheses may hold spaces). */
function statFields(stat: string): { parent: number } | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  return Number.isInteger(parent) ? { parent } : undefined;
}
