// The cluster (examples/cluster/README.md): submissions through nginx to 1, 2 and 3 replicas on
// PostgreSQL and Redis, beside one file-backed process straight and behind the same nginx, so the proxy's cost is
// told apart from the shared state's. Information only (no target): throughput ratios against the single
// process, which show how the cost grows with replicas. Every server (replicas, nginx, PostgreSQL, Redis) runs
// on the server cores, so on a small machine the replicas share the cores the single process has alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { RunningBalancer } from '../test/support/nginx-balancer.js';
import { startPostgresServer, type TestPostgres } from '../test/support/postgres-server.js';
import { startRedisServer, type TestRedis } from '../test/support/redis-server.js';
import { balancerFor, hostPortOf, LIMITED_FORM, OPEN_FORM, writeClusterBenchConfig } from './lib/cluster-setup.js';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import type { LoadResult } from './lib/load.js';
import { parentOf, pinRunningTree } from './lib/pin-running.js';
import { delay, startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { formatCount, formatMs } from './lib/report.js';
import { ratioOf, runSideBySide, summarize, type Contender, type RoundResults } from './lib/side-by-side.js';
import { runProblems } from './lib/throughput-figure.js';

const SECTION = 'cluster';
const REPLICAS = 3;
const JSON_HEADERS = { 'content-type': 'application/json' };
const INVALID_SUBMISSION = JSON.stringify({ name: 'A', email: 'not an address', message: 'too short' });
const VALID_SUBMISSION = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello! I would like a website for my bakery, with a menu page and a contact form.',
});

export async function benchCluster(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section(`Cluster: submissions through nginx to 1-${REPLICAS} replicas on PostgreSQL and Redis, beside one file-backed process`);
  const dir = path.join(context.tmpRoot, 'cluster');
  const server = context.cores.server;
  const stops: Array<() => Promise<unknown>> = [];
  try {
    const sink: RunningChild = await startHelper('reference/smtp-sink.ts', [], context.cores.load, true);
    stops.push(() => sink.stop());
    const smtpPort = Number(sink.address);
    const postgres: TestPostgres = await startPostgresServer({ durable: true });
    stops.push(() => postgres.close());
    const redis: TestRedis = await startRedisServer();
    stops.push(() => redis.close());
    const database = new pg.Pool({ connectionString: postgres.url, max: 1 });
    stops.push(() => database.end());
    await pinServers(database, redis, server);

    const start = async (name: string, configFile: string) => {
      const running = await startPostbox({ configFile, logFile: path.join(dir, `${name}.log`), services: ['forms'], placement: server });
      stops.push(() => running.stop());
      return running;
    };
    const balance = async (name: string, upstreams: RunningPostbox[]) => {
      const balancer: RunningBalancer = await balancerFor(path.join(dir, `nginx-${name}`), upstreams.map((running) => hostPortOf(running.addresses.forms as string)), server);
      stops.push(() => balancer.stop());
      return balancer.base;
    };
    const files = await start('files', writeClusterBenchConfig(path.join(dir, 'files'), smtpPort, { state: 'files' }));
    const replicas: RunningPostbox[] = [];
    for (let index = 1; index <= REPLICAS; index += 1) {
      const backend = { state: 'postgres' as const, databaseUrl: postgres.url, redisUrl: redis.url };
      replicas.push(await start(`replica-${index}`, writeClusterBenchConfig(path.join(dir, `replica-${index}`), smtpPort, backend)));
    }
    const processes = [files, ...replicas];
    const clusters: Contender[] = [];
    for (let count = 1; count <= REPLICAS; count += 1) {
      clusters.push({ name: `${count} replica${count === 1 ? '' : 's'} + nginx`, base: await balance(`cluster-${count}`, replicas.slice(0, count)) });
    }
    const direct: Contender = { name: 'files', base: files.addresses.forms as string };
    const proxied: Contender = { name: 'files + nginx', base: await balance('files', [files]) };

    // Counted on every run, warm-ups included, to compare with what was archived.
    const answered = { files: 0, cluster: 0 };
    const counting = (contender: Contender, side: keyof typeof answered): Contender => ({
      ...contender,
      afterRun: async (result: LoadResult) => {
        answered[side] += result.requests - result.non2xx;
        await waitForQueues(side === 'files' ? [files] : replicas);
      },
    });

    const rejected = await runSideBySide([direct, proxied, ...clusters], { path: OPEN_FORM, method: 'POST', headers: JSON_HEADERS, body: INVALID_SUBMISSION }, sideBySideOptions(context));
    addRatios(context, rejected, `POST ${OPEN_FORM} rejected (400), no rate limit`, 'files', false);

    const limited = await runSideBySide([proxied, ...clusters], { path: LIMITED_FORM, method: 'POST', headers: JSON_HEADERS, body: INVALID_SUBMISSION }, sideBySideOptions(context));
    addRatios(context, limited, `POST ${LIMITED_FORM} rejected (400) after a rate-limit token`, 'files + nginx', false);

    const accepted = await runSideBySide(
      [counting(direct, 'files'), counting(proxied, 'files'), ...clusters.map((contender) => counting(contender, 'cluster'))],
      { path: OPEN_FORM, method: 'POST', headers: JSON_HEADERS, body: VALID_SUBMISSION },
      sideBySideOptions(context),
    );
    addRatios(context, accepted, `POST ${OPEN_FORM} accepted (200: archived, owner mail queued)`, 'files', true);

    const archivedFiles = readFileSync(path.join(dir, 'files', 'data', 'contact.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    const archivedRows = Number((await database.query("SELECT count(*) AS count FROM archives WHERE archive = 'contact.jsonl'")).rows[0].count);
    const complete = archivedFiles >= answered.files && archivedRows >= answered.cluster && answered.cluster > 0;
    report.add({
      section: SECTION,
      name: 'every submission answered 200 archived',
      value: `${formatCount(archivedRows)} rows for ${formatCount(answered.cluster)}`,
      target: 'all',
      verdict: complete ? 'PASS' : 'FAIL',
      detail: `PostgreSQL rows against the replicas' 200 answers; the file-backed process: ${formatCount(archivedFiles)} lines for ${formatCount(answered.files)} (a request still in flight when a run ends is archived but not counted by the load generator)`,
    });
    const limitedCount = (await Promise.all(processes.map(metricsOf))).reduce((sum, metrics) => sum + metrics.totals.rate_limited, 0);
    report.add({
      section: SECTION,
      name: 'submissions refused by the rate limit',
      value: formatCount(limitedCount),
      target: '0',
      verdict: limitedCount === 0 ? 'PASS' : 'FAIL',
      detail: 'each load-generator connection is its own client behind nginx, so every request took a token and none ran out',
    });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/** One INFO line per contender: its median req/s ratio against `baseline`, with the absolute figures. */
function addRatios(context: BenchContext, results: RoundResults, name: string, baseline: string, expectSuccess: boolean): void {
  for (const contender of Object.keys(results)) {
    const summary = summarize(results[contender] ?? []);
    const problems = runProblems(results, contender, expectSuccess);
    const ratio = contender === baseline ? undefined : ratioOf(results, contender, baseline);
    context.report.add({
      section: SECTION,
      name: `${name}, ${contender}`,
      value: ratio ? `${ratio.median.toFixed(2)} x ${baseline}` : `${formatCount(summary.rps)} req/s`,
      target: '-',
      verdict: problems.length > 0 ? 'FAIL' : 'INFO',
      detail: [
        `${formatCount(summary.rps)} req/s p50 ${formatMs(summary.p50Ms)} p99 ${formatMs(summary.p99Ms)}`,
        ratio ? `ratio per round ${ratio.rounds.map((value) => value.toFixed(2)).join(' ')}` : 'the baseline of these lines',
        ...problems,
      ].join('; '),
    });
  }
}

interface MetricsBody {
  totals: { rate_limited: number };
  queue?: { pending: number };
}

async function metricsOf(running: RunningPostbox): Promise<MetricsBody> {
  return (await (await fetch(`${running.addresses.forms}/metrics`)).json()) as MetricsBody;
}

/** Waits (at most a minute) until the queues of `processes` have sent what the last run queued. */
async function waitForQueues(processes: RunningPostbox[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const pending = (await Promise.all(processes.map(metricsOf))).reduce((sum, metrics) => sum + (metrics.queue?.pending ?? 0), 0);
    if (pending === 0) return;
    await delay(50);
  }
  throw new Error('the mail queues did not drain within 60 s');
}

/** PostgreSQL (its postmaster and children) and redis-server on the server cores, like the postbox processes. */
async function pinServers(database: pg.Pool, redis: TestRedis, placement: BenchContext['cores']['server']): Promise<void> {
  const backend = Number((await database.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
  const postmaster = parentOf(backend);
  if (postmaster !== undefined) pinRunningTree(postmaster, placement);
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const pid = Number(/^process_id:(\d+)/m.exec(await client.info('server'))?.[1]);
    if (Number.isInteger(pid)) pinRunningTree(pid, placement);
  } finally {
    client.disconnect();
  }
}
