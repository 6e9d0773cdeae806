// What every bench part gets from the runner: the report, the core plan, the load generator and its settings.
import type { LoadTool } from './load.js';
import type { CorePlan } from './processes.js';
import type { Report } from './report.js';
import type { SideBySideOptions } from './side-by-side.js';

export interface BenchContext {
  report: Report;
  cores: CorePlan;
  tool: LoadTool;
  /** Alternating rounds per URL, seconds per run, warm-up seconds per contender, concurrent connections. */
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** A temp dir of this run; each part makes its own folder inside. */
  tmpRoot: string;
  /** When set, postbox runs with --cpu-prof and leaves its profiles here. */
  cpuProfileDir: string | undefined;
}

/** The load settings of the context, the load generator on its own cores. */
export function sideBySideOptions(context: BenchContext): SideBySideOptions {
  const { tool, connections, seconds, rounds, warmupSeconds } = context;
  return { tool, connections, seconds, rounds, warmupSeconds, placement: context.cores.load };
}
