// Turns side-by-side rounds into one report line: the median ratio against the reference, with the absolute
// req/s and p99 of every contender beside it (for information only).
//
// Two ratios are taken round by round: requests per second, and requests per CPU-second of the server
// process (/proc). On a quiet machine they agree. On a shared one, other work that starves the load
// generator or one server during a round moves the first but hardly the second, and a load generator that
// cannot saturate a fast reference inflates the first. So where the server's CPU is the limit (cpuBound),
// a target holds only when both ratios meet it.
import type { Report } from './report.js';
import { formatCount, formatMs } from './report.js';
import { cpuRatioOf, ratioOf, summarize, type RoundResults } from './side-by-side.js';

export interface ThroughputFigureOptions {
  section: string;
  name: string;
  subject: string;
  reference: string;
  minimumRatio: number;
  /** Extra problems found while running (unexpected statuses, lost mails); any makes the line FAIL. */
  problems?: string[];
  /** The server's CPU is what limits this path: the CPU ratio must meet the target too. */
  cpuBound: boolean;
  /** Rounds with the contenders loaded at the same moment (runAtOnce): their CPU ratio, printed beside. */
  atOnce?: RoundResults;
}

/** Adds the ratio line for `subject` against `reference` and returns the median ratio. */
export function addThroughputFigure(report: Report, results: RoundResults, options: ThroughputFigureOptions): number {
  const ratio = ratioOf(results, options.subject, options.reference);
  const columns = Object.entries(results).map(([name, runs]) => {
    const summary = summarize(runs);
    const cpu = summary.cpuUsPerRequest === undefined ? '' : ` cpu ${summary.cpuUsPerRequest.toFixed(0)} us/req`;
    return `${name} ${formatCount(summary.rps)} req/s p50 ${formatMs(summary.p50Ms)} p99 ${formatMs(summary.p99Ms)}${cpu}`;
  });
  const cpu = cpuRatioOf(results, options.subject, options.reference);
  const perRound = Object.entries(results).map(([name, runs]) => `${name} ${runs.map((run) => formatCount(run.rps)).join(' ')}`);
  const rounds = [
    `req/s ratio per round ${ratio.rounds.map((value) => value.toFixed(2)).join(' ')}`,
    cpu ? `req per CPU-second ratio per round ${cpu.rounds.map((value) => value.toFixed(2)).join(' ')}` : 'no CPU figures (no /proc)',
    `req/s per round: ${perRound.join(' | ')}`,
  ];
  const atOnce = options.atOnce && cpuRatioOf(options.atOnce, options.subject, options.reference);
  if (atOnce) {
    rounds.push(`at the same moment: req per CPU-second ratio ${atOnce.median.toFixed(2)}, per round ${atOnce.rounds.map((value) => value.toFixed(2)).join(' ')}`);
  }
  const problems = options.problems ?? [];
  const cpuHolds = !options.cpuBound || cpu === undefined || cpu.median >= options.minimumRatio;
  report.add({
    section: options.section,
    name: options.name,
    value: `${ratio.median.toFixed(2)}${cpu ? ` (cpu ${cpu.median.toFixed(2)})` : ''} x ${options.reference}`,
    target: `>= ${options.minimumRatio.toFixed(2)}${options.cpuBound ? ' both' : ''}`,
    verdict: problems.length === 0 && ratio.median >= options.minimumRatio && cpuHolds ? 'PASS' : 'FAIL',
    detail: [columns.join(' | '), ...rounds, ...problems].join('\n      '),
  });
  return ratio.median;
}

/** Problems with a contender's runs: responses with another status class than expected, socket errors. */
export function runProblems(results: RoundResults, contender: string, expectSuccess: boolean): string[] {
  const runs = results[contender] ?? [];
  const wrong = runs.reduce((sum, run) => sum + (expectSuccess ? run.non2xx : run.requests - run.non2xx), 0);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  const problems: string[] = [];
  if (wrong > 0) problems.push(`${contender}: ${wrong} responses with an unexpected status`);
  if (errors > 0) problems.push(`${contender}: ${errors} socket errors or time-outs`);
  return problems;
}
