// An on_publish automation mailing one post to 10,000 subscribers (docs/newsletter.md "Automations"), on data_dir
// files and on PostgreSQL: the mail core of `postbox serve` (queue, campaign feeder, ledger) with `send_per_minute =
// 0` and a mailer that accepts every mail at once, so that the figures are Postbox's own work. Two times from the
// moment the post is visible: until its campaign is planned (every recipient durably recorded: from there a kill
// loses nobody) and until every recipient's mail went through the durable queue (all queued and handed over). The
// process's memory is sampled every 50 ms: the peak resident memory and the heap's growth over the run.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { composeMailCore } from '../src/app/compose.js';
import { openBackend } from '../src/app/open-backend.js';
import { importNewsletterFromFiles } from '../src/adapters/postgres/newsletter-import.js';
import { createPostgresState } from '../src/adapters/postgres/state.js';
import type { PublishedPost } from '../src/blog/published-post.js';
import type { PostAutomation } from '../src/config/config.js';
import { parseConfigText } from '../src/config/load.js';
import { createSilentLogger } from '../src/kit/log.js';
import { systemTimers } from '../src/kit/timers.js';
import { createPostAutomations } from '../src/newsletter/automations/post-automations.js';
import { progressOf } from '../src/newsletter/campaigns/campaign.js';
import { startPostgresServer } from '../test/support/postgres-server.js';
import type { BenchContext } from './lib/context.js';
import { delay } from './lib/processes.js';
import { formatBytes, formatCount } from './lib/report.js';

const SECTION = 'on-publish';
const SUBSCRIBERS = 10_000;
const FORM_PATH = '/newsletter';

export async function benchOnPublish10k(context: BenchContext): Promise<void> {
  context.report.section(`on_publish: one post to ${formatCount(SUBSCRIBERS)} subscribers, files and PostgreSQL`);
  await runOn(context, 'files');
  const postgres = await startPostgresServer({ durable: true });
  try {
    await runOn(context, 'postgres', postgres.url);
  } finally {
    await postgres.close();
  }
}

async function runOn(context: BenchContext, backendName: 'files' | 'postgres', url?: string): Promise<void> {
  const dir = path.join(context.tmpRoot, `on-publish-${backendName}`);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const subscribed = (index: number) =>
    `${JSON.stringify({ event: 'subscribed', email: `reader${index}@example.org`, form: FORM_PATH, subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
  writeFileSync(path.join(dataDir, 'subscribers.jsonl'), Array.from({ length: SUBSCRIBERS }, (_, index) => subscribed(index)).join(''));
  const table = {
    data_dir: dataDir,
    server: { listen: '127.0.0.1:0', public_url: 'https://forms.bench.example' },
    mail: { transport: 'smtp', from: 'Bench News <news@bench.example>', to: 'owner@bench.example', send_per_minute: 0, smtp: { host: '127.0.0.1', port: 2525, secure: false } },
    forms: [{ path: FORM_PATH, type: 'newsletter', subscribers: 'subscribers.jsonl' }],
    newsletter: { automations: [{ id: 'posts', type: 'on_publish', list: 'newsletter' }] },
    ...(url ? { state: { backend: 'postgres', url } } : {}),
  };
  const parsed = parseConfigText(stringify(table), {}, dir);
  if (!parsed.ok) throw new Error(parsed.problems.map((problem) => problem.message).join('; '));
  const { config } = parsed;
  const logger = createSilentLogger();
  if (url) {
    // As `postbox migrate --from-files` would: the subscribers into PostgreSQL.
    const state = createPostgresState(url, logger);
    await state.migrated();
    await importNewsletterFromFiles(dataDir, config, state);
    await state.close();
  }
  const backend = openBackend(config, logger);
  await backend.ready();
  const core = await composeMailCore(config, config.mail!, backend, { logger, clock: Date.now, timers: systemTimers, mailer: { send: async () => undefined, close: async () => undefined } });
  const post: PublishedPost = { slug: 'launch', lang: 'en', title: 'Launch day', url: 'https://bench.example/blog/launch', html: `<p>${'A paragraph of the post. '.repeat(40)}</p>`, date: new Date().toISOString() };
  let visible = false;
  const automations = createPostAutomations({
    automations: config.newsletter.automations as PostAutomation[],
    lists: config.newsletter.lists,
    segments: [],
    posts: {
      listPublished: () => (visible ? [{ slug: post.slug, lang: post.lang, publishedAt: Date.parse(post.date), newsletter: true, primary: true }] : []),
      findPublishedPost: () => (visible ? post : undefined),
      nextScheduledAt: () => undefined,
    },
    subscribers: (log) => core.newsletter.listSubscribers(log),
    store: backend.automations,
    campaigns: backend.campaigns,
    site: { title: 'Bench Blog', baseUrl: 'https://bench.example', language: 'en' },
    timeZone: 'UTC',
    clock: Date.now,
    timers: systemTimers,
    logger,
    onCampaign: () => core.campaigns?.wake(),
  });
  try {
    await automations.runOnce();
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peakRss = process.memoryUsage().rss;
    let peakHeap = heapBefore;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const usage = process.memoryUsage();
        peakRss = Math.max(peakRss, usage.rss);
        peakHeap = Math.max(peakHeap, usage.heapUsed);
        await delay(50);
      }
    })();
    visible = true;
    const started = performance.now();
    await automations.runOnce();
    const plannedMs = performance.now() - started;
    const [request] = await backend.campaigns.list();
    if (!request || request.recipients !== SUBSCRIBERS) throw new Error(`the campaign has ${request?.recipients ?? 'no'} recipients`);
    let progress = progressOf(await backend.campaigns.readJournal(request.id), request.recipients);
    while (!progress.finished) {
      await delay(100);
      progress = progressOf(await backend.campaigns.readJournal(request.id), request.recipients);
    }
    const doneMs = performance.now() - started;
    sampling = false;
    await sampler;
    context.report.add({
      section: SECTION,
      name: `${backendName}: post visible to campaign planned (${formatCount(SUBSCRIBERS)} recipients recorded)`,
      value: `${(plannedMs / 1000).toFixed(2)} s`,
      target: '-',
      verdict: 'INFO',
    });
    context.report.add({
      section: SECTION,
      name: `${backendName}: post visible to every mail through the durable queue`,
      value: `${(doneMs / 1000).toFixed(1)} s`,
      target: '-',
      verdict: progress.sent === SUBSCRIBERS ? 'INFO' : 'FAIL',
      detail: `${formatCount(progress.sent)} sent, ${progress.failed} failed, ${progress.skipped} skipped; ${formatCount((SUBSCRIBERS / doneMs) * 1000)} mails a second`,
    });
    context.report.add({
      section: SECTION,
      name: `${backendName}: memory of the process over the run`,
      value: `peak RSS ${formatBytes(peakRss)}`,
      target: '-',
      verdict: 'INFO',
      detail: `heap before ${formatBytes(heapBefore)}, peak ${formatBytes(peakHeap)} (+${formatBytes(peakHeap - heapBefore)})`,
    });
  } finally {
    await automations.stop();
    await core.close();
    await backend.close();
  }
}
