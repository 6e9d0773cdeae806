// `npm run bench [-- blog|forms|<part>...]`: every figure of the benchmark issue, each beside its reference in
// the same run, with its target and PASS/FAIL. Exits 1 when a target is missed. See docs/performance.md.
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchBlog1k } from './blog-1k.js';
import { benchBlog10k } from './blog-10k.js';
import { benchCampaign10k } from './campaign-10k.js';
import { benchOnPublish10k } from './on-publish-10k.js';
import { benchCluster } from './cluster.js';
import { benchFormsHttp } from './forms-http.js';
import { benchInbox100k } from './inbox-100k.js';
import { benchSearch10k } from './search-10k.js';
import { benchStartupScale } from './startup-scale.js';
import { benchRateLimiterMemory } from './rate-limiter-memory.js';
import { benchSignInBurst } from './sign-in-burst.js';
import type { BenchContext } from './lib/context.js';
import { chooseLoadTool } from './lib/load.js';
import { findNginx } from './lib/nginx.js';
import { planCores } from './lib/processes.js';
import { createReport } from './lib/report.js';

const PARTS: Array<{ name: string; group: string; run: (context: BenchContext) => Promise<void> }> = [
  { name: 'blog-1k', group: 'blog', run: benchBlog1k },
  { name: 'blog-10k', group: 'blog', run: benchBlog10k },
  { name: 'search-10k', group: 'blog', run: benchSearch10k },
  { name: 'comments-1k', group: 'blog', run: async (context) => (await import('./comments-1k.js')).benchComments1k(context) },
  { name: 'activitypub-fanout', group: 'blog', run: async (context) => (await import('./activitypub-fanout.js')).benchActivityPubFanout(context) },
  { name: 'astro-5k', group: 'sites', run: async (context) => (await import('./astro-5k.js')).benchAstro5k(context) },
  { name: 'analytics', group: 'blog', run: async (context) => (await import('./analytics-events.js')).benchAnalyticsEvents(context) },
  { name: 'startup-scale', group: 'scale', run: benchStartupScale },
  { name: 'search-at-start', group: 'scale', run: async (context) => (await import('./search-at-start.js')).benchSearchAtStart(context) },
  { name: 'search-build', group: 'scale', run: async (context) => (await import('./search-build.js')).benchSearchBuild(context) },
  { name: 'forms-http', group: 'forms', run: benchFormsHttp },
  { name: 'rate-limiter', group: 'forms', run: benchRateLimiterMemory },
  { name: 'spam', group: 'forms', run: async (context) => (await import('./spam.js')).benchSpam(context) },
  { name: 'attachments', group: 'forms', run: async (context) => (await import('./attachments.js')).benchAttachments(context) },
  { name: 'campaign-10k', group: 'newsletter', run: benchCampaign10k },
  { name: 'on-publish-10k', group: 'newsletter', run: benchOnPublish10k },
  { name: 'inbox-100k', group: 'admin', run: benchInbox100k },
  { name: 'sign-in-burst', group: 'admin', run: benchSignInBurst },
  { name: 'git-save', group: 'admin', run: async (context) => (await import('./git-save.js')).benchGitSave(context) },
  { name: 'cluster', group: 'cluster', run: benchCluster },
];

const USAGE = `Usage: npm run bench [-- [options] [blog|forms|newsletter|admin|scale|${PARTS.map((part) => part.name).join('|')} ...]]

Options:
  --rounds N        alternating rounds per URL (default 5)
  --seconds S       seconds per load run (default 2)
  --warmup S        warm-up seconds per contender before the rounds (default 1)
  --connections C   concurrent connections of the load generator (default 64)
  --cpu-prof DIR    run postbox with --cpu-prof, profiles written to DIR
  --keep            keep the temp dir (corpora, configs, logs) and print its path

Environment: BENCH_LOADGEN=wrk|autocannon (default wrk where installed), BENCH_PIN=0 (no taskset pinning),
  BENCH_NICE=N (run servers and load generator at niceness N; negative values need root), BENCH_NGINX=0 (leave
  nginx out), BENCH_CORPUS=wide (generated posts closer to prose: a wider vocabulary, longer posts).
`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '64' },
      'cpu-prof': { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = positionals.filter((name) => !PARTS.some((part) => part.name === name || part.group === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown part: ${unknown.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  const parts = PARTS.filter((part) => positionals.length === 0 || positionals.some((name) => name === part.name || name === part.group));
  const report = createReport();
  const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'postbox-bench-'));
  const cpuProfileDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
  if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });
  const context: BenchContext = {
    report,
    cores: planCores(),
    tool: chooseLoadTool(),
    rounds: positiveNumber(values.rounds, 'rounds'),
    seconds: positiveNumber(values.seconds, 'seconds'),
    warmupSeconds: Number(values.warmup),
    connections: positiveNumber(values.connections, 'connections'),
    tmpRoot,
    cpuProfileDir,
  };
  printMachine(context);
  const started = performance.now();
  try {
    for (const part of parts) {
      try {
        await part.run(context);
      } catch (error) {
        report.add({ section: part.name, name: 'run', value: 'error', target: '-', verdict: 'FAIL', detail: (error as Error).stack ?? String(error) });
      }
    }
  } finally {
    if (values.keep) process.stdout.write(`\nkept: ${tmpRoot}\n`);
    else rmSync(tmpRoot, { recursive: true, force: true });
  }
  report.printSummary();
  process.stdout.write(`finished in ${Math.round((performance.now() - started) / 1000)} s\n`);
  return report.failed() ? 1 : 0;
}

function positiveNumber(text: string | undefined, name: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

function printMachine(context: BenchContext): void {
  const cpuinfo = safeRead('/proc/cpuinfo');
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const lines = [
    `machine: ${os.availableParallelism()} cores (${model}), ${Math.round(os.totalmem() / 1024 ** 3)} GB, node ${process.version}, ${os.platform()} ${os.release()}`,
    `load generator: ${context.tool}, ${context.connections} connections; ${context.rounds} alternating rounds of ${context.seconds} s after ${context.warmupSeconds} s warm-up`,
    (context.cores.server.cpus === undefined
      ? 'cores: not pinned (the load generator and the servers share every core)'
      : `cores: servers pinned to CPU ${context.cores.server.cpus}, load generator and SMTP sink to CPU ${context.cores.load.cpus} (taskset)`) +
      (context.cores.server.nice === undefined ? '' : `; every bench process at nice ${context.cores.server.nice}`),
    `nginx: ${findNginx() ?? 'not installed (skipped)'}`,
    `load average now: ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} (the machine may be shared: ratios, not absolute figures, are the result)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
