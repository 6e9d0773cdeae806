// Analytics: beacons on `POST /api/analytics/event` as fast as the load generator sends them (target: at least
// 5,000 events per second, docs/performance.md "Figures"; by wall clock, or by CPU-second of the server, which is
// pinned to one core, when the load generator cannot keep it busy), then the blog's cached `GET /api/blog/posts` alone and
// while events arrive at a steady EVENT_PACE per second, in alternating rounds of the same run. Every event answered
// 204 must be in the day's rollup once the server stopped: an event that was answered and not counted is no event.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type BenchContext } from './lib/context.js';
import { generateCorpus } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { readCpuMs } from './lib/cpu-time.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { startPostbox, type RunningPostbox } from './lib/processes.js';
import { formatCount } from './lib/report.js';

const SECTION = 'analytics';
const MINIMUM_EVENTS_PER_SECOND = 5_000;
/** Events per second sent while the blog's throughput is measured: a busy site's page views. */
const EVENT_PACE = 500;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const EVENT = JSON.stringify({ path: '/blog/a-post', referrer: 'https://news.example/item', width: 1280 });

export async function benchAnalyticsEvents(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Analytics: events per second, and the blog while events arrive');
  const dir = path.join(context.tmpRoot, 'analytics');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: 100, seed: 19 });
  const configFile = writeBlogConfig(dir, corpus.dir);
  // Unlimited: the load generator is one address.
  appendFileSync(configFile, '\n[analytics]\nenabled = true\nrate_limit_per_hour = 0\n');
  const load = { tool: context.tool, connections: context.connections, seconds: context.seconds, placement: context.cores.load };
  let postbox: RunningPostbox | undefined;
  let answered = 0;
  try {
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['blog'], placement: context.cores.server, cpuProfileDir: context.cpuProfileDir });
    const base = postbox.addresses.blog as string;
    const event = { url: `${base}/api/analytics/event`, method: 'POST' as const, headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER }, body: EVENT };
    const page = { url: `${base}/api/blog/posts` };

    // The warm-up's events are counted too.
    answered += (await runLoad(event, { ...load, seconds: context.warmupSeconds })).requests;
    await runLoad(page, { ...load, seconds: context.warmupSeconds });
    const events: LoadResult[] = [];
    const perCpuSecond: number[] = [];
    const alone: LoadResult[] = [];
    const beside: LoadResult[] = [];
    let problems = 0;
    for (let round = 0; round < context.rounds; round++) {
      const cpuBefore = readCpuMs(postbox.pid);
      const run = await runLoad(event, load);
      const cpuAfter = readCpuMs(postbox.pid);
      events.push(run);
      if (cpuBefore !== undefined && cpuAfter !== undefined && cpuAfter > cpuBefore) perCpuSecond.push((run.requests * 1000) / (cpuAfter - cpuBefore));
      alone.push(await runLoad(page, load));
      const pacer = paceEvents(event.url, event.headers, EVENT_PACE);
      beside.push(await runLoad(page, load));
      const paced = await pacer.stop();
      answered += paced.answered;
      problems += paced.failed;
    }
    for (const run of [...events, ...alone, ...beside]) problems += run.non2xx + run.errors;
    answered += events.reduce((total, run) => total + run.requests, 0);
    const eventRate = median(events.map((run) => run.rps));
    const cpuRate = perCpuSecond.length > 0 ? median(perCpuSecond) : undefined;
    // The server runs on one core; when the load generator (or a shared machine) cannot keep that core busy, the
    // events a CPU-second of the server answers is what the core would take.
    const capacity = Math.max(eventRate, cpuRate ?? 0);
    const rateAlone = median(alone.map((run) => run.rps));
    await postbox.stop();
    postbox = undefined;
    const counted = countedViews(path.join(dir, 'data', 'analytics'));
    // wrk counts the answers it read; a request in flight at its end may be counted by the server and not by wrk.
    const correct = problems === 0 && counted >= answered && counted <= answered + context.connections * (events.length + 1) * 2;
    report.add({
      section: SECTION,
      name: 'POST /api/analytics/event, events per second (per CPU-second of the server)',
      value: `${formatCount(eventRate)} (${cpuRate === undefined ? '-' : formatCount(cpuRate)})`,
      target: `>= ${formatCount(MINIMUM_EVENTS_PER_SECOND)}`,
      verdict: correct && capacity >= MINIMUM_EVENTS_PER_SECOND ? 'PASS' : 'FAIL',
      detail: `median of ${events.length} runs of ${context.seconds} s, ${(eventRate / rateAlone).toFixed(2)} of the cached GET's in the same rounds; ${formatCount(answered)} events answered in all, ${formatCount(counted)} counted in the rollup${problems ? `, ${problems} failed` : ''}`,
    });
    const rateBeside = median(beside.map((run) => run.rps));
    report.add({
      section: SECTION,
      name: `GET /api/blog/posts while ${EVENT_PACE} events/s arrive, of its throughput alone`,
      value: (rateBeside / rateAlone).toFixed(2),
      target: '-',
      verdict: 'INFO',
      detail: `${formatCount(rateBeside)} req/s beside the events, ${formatCount(rateAlone)} req/s alone (medians of ${alone.length} alternating runs)${cpuRate ? `; the events take ${((100 * EVENT_PACE) / cpuRate).toFixed(0)} % of the server's core` : ''}; p99 ${median(beside.map((run) => run.p99Ms)).toFixed(1)} ms against ${median(alone.map((run) => run.p99Ms)).toFixed(1)} ms`,
    });
  } finally {
    await postbox?.stop();
  }
}

/** Sends events at `perSecond` from this process until stopped (a tick every 10 ms); resolves with what came back. */
function paceEvents(url: string, headers: Record<string, string>, perSecond: number): { stop(): Promise<{ answered: number; failed: number }> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let answered = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const send = () => {
    const sent = new Promise<void>((resolve) => {
      const request = http.request(url, { method: 'POST', agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 204) answered++;
          else failed++;
          resolve();
        });
      });
      request.on('error', () => {
        failed++;
        resolve();
      });
      request.end(EVENT);
    });
    inFlight.add(sent);
    void sent.then(() => inFlight.delete(sent));
  };
  const started = performance.now();
  let sentCount = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
    for (; sentCount < due; sentCount++) send();
  }, 10);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      agent.destroy();
      return { answered, failed };
    },
  };
}

/** Every view in the rollup files of `folder`. */
function countedViews(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    const day = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as { views: Record<string, number> };
    for (const count of Object.values(day.views)) total += count;
  }
  return total;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
