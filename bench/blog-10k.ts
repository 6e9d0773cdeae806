// Blog, 10,000 posts: start-up to the first full answer, resident memory after load, `q` search latency
// (cold and cached), and how soon an edited file is served.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { generateCorpus, SEARCH_TERMS, type CorpusInfo } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { createClient, parseJson } from './lib/http-client.js';
import { runLoad } from './lib/load.js';
import { delay, readMemory, startPostbox, waitForListening, type RunningPostbox } from './lib/processes.js';
import { formatBytes, formatMs, type Report } from './lib/report.js';
import { median } from './lib/side-by-side.js';

const SECTION = 'blog 10k';
const STARTUP_LIMIT_MS = 5000;
const MEMORY_LIMIT_BYTES = 400 * 1024 * 1024;
const SEARCH_LIMIT_MS = 20;
const EDIT_LIMIT_MS = 2000;
const CACHED_REPEATS = 10;

/** Runs the 10,000-post figures and adds them to the report. */
export async function benchBlog10k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog, 10,000 posts: start-up, memory, search, edits');
  const dir = path.join(context.tmpRoot, 'blog-10k');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: 10_000, seed: 10_000 });
  report.note(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MB, ${corpus.published} published posts`);
  const configFile = writeBlogConfig(dir, corpus.dir);
  const postbox = await startPostbox({
    configFile,
    logFile: path.join(dir, 'postbox.log'),
    services: ['blog'],
    placement: context.cores.server,
    cpuProfileDir: context.cpuProfileDir,
    waitForListening: false,
  });
  try {
    const base = await measureStartup(report, postbox, corpus);
    await measureSearch(report, base, corpus);
    await loadThenMeasureMemory(context, postbox, base);
    await measureEdits(report, base, corpus);
  } finally {
    await postbox.stop();
  }
}

async function measureStartup(report: Report, postbox: RunningPostbox, corpus: CorpusInfo): Promise<string> {
  const addresses = await waitForListening(postbox, ['blog'], 60_000);
  const listeningMs = performance.now() - postbox.spawnedAt;
  const base = addresses.blog as string;
  const client = createClient();
  let firstOkMs: number | undefined;
  let total: number | undefined;
  try {
    const deadline = performance.now() + 60_000;
    for (;;) {
      const response = await client.get(`${base}/api/blog/posts`).catch(() => undefined);
      if (response?.status === 200) {
        firstOkMs ??= performance.now() - postbox.spawnedAt;
        total = parseJson<{ total?: number }>(response)?.total;
        if (total === corpus.published) break;
      }
      if (performance.now() > deadline) throw new Error(`the blog did not serve all ${corpus.published} posts within 60 s (total ${total})`);
      await delay(5);
    }
  } finally {
    client.close();
  }
  const fullMs = performance.now() - postbox.spawnedAt;
  report.add({
    section: SECTION,
    name: 'start-up to first answer with every post',
    value: formatMs(fullMs),
    target: `< ${STARTUP_LIMIT_MS} ms`,
    verdict: fullMs < STARTUP_LIMIT_MS ? 'PASS' : 'FAIL',
    detail: `from spawn: listening after ${formatMs(listeningMs)}, first 200 after ${formatMs(firstOkMs ?? NaN)}, all ${corpus.published} posts listed after ${formatMs(fullMs)}`,
  });
  return base;
}

/** Every search term alone and some pairs; each asked once cold, then CACHED_REPEATS times. */
async function measureSearch(report: Report, base: string, corpus: CorpusInfo): Promise<void> {
  const singles = SEARCH_TERMS.map((term) => term.word);
  const queries = [...singles, 'matrix zenith', 'lynx syntax', 'zenith xylograph', 'Matrix LYNX', 'onyx zircon'];
  const client = createClient();
  const cold: number[] = [];
  const cached: number[] = [];
  const mismatches: string[] = [];
  try {
    for (const query of queries) {
      const url = `${base}/api/blog/posts?q=${encodeURIComponent(query)}`;
      const first = await client.get(url);
      if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}`);
      cold.push(first.ms);
      const expected = corpus.termCounts[query];
      const { total } = parseJson<{ total?: number }>(first) ?? {};
      if (expected !== undefined && total !== expected) mismatches.push(`q=${query}: total ${total}, the corpus has ${expected}`);
      for (let repeat = 0; repeat < CACHED_REPEATS; repeat += 1) cached.push((await client.get(url)).ms);
    }
  } finally {
    client.close();
  }
  const figure = (name: string, values: number[], detail: string) => {
    const value = median(values);
    report.add({
      section: SECTION,
      name,
      value: formatMs(value),
      target: `< ${SEARCH_LIMIT_MS} ms`,
      verdict: value < SEARCH_LIMIT_MS && mismatches.length === 0 ? 'PASS' : 'FAIL',
      detail: [detail, `max ${formatMs(Math.max(...values))}`, ...mismatches].join('; '),
    });
  };
  figure('q search median, cold (first time each query)', cold, `${queries.length} distinct queries, 0.5 % to 30 % of posts match`);
  figure('q search median, cached (repeated queries)', cached, `${CACHED_REPEATS} repeats of each query`);
}

/** Loads the usual URLs for a while (so caches fill as in use), then reads VmRSS. */
async function loadThenMeasureMemory(context: BenchContext, postbox: RunningPostbox, base: string): Promise<void> {
  const paths = ['/api/blog/posts', '/api/blog/posts?page=40&limit=100', '/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml', '/api/blog/tags', '/api/blog/posts?q=xylograph'];
  const seconds = Math.max(1, Math.round(context.seconds / 2));
  for (const url of paths) {
    await runLoad({ url: base + url }, { tool: context.tool, connections: context.connections, seconds, placement: context.cores.load });
  }
  const memory = readMemory(postbox.pid);
  if (!memory) {
    context.report.add({ section: SECTION, name: 'resident memory after load', value: 'n/a', target: '< 400 MB', verdict: 'SKIP', detail: 'no /proc on this system' });
    return;
  }
  context.report.add({
    section: SECTION,
    name: 'resident memory after load (VmRSS)',
    value: formatBytes(memory.rss),
    target: `< ${formatBytes(MEMORY_LIMIT_BYTES)}`,
    verdict: memory.rss < MEMORY_LIMIT_BYTES ? 'PASS' : 'FAIL',
    detail: `peak (VmHWM) ${formatBytes(memory.peak)}; after ${paths.length} x ${seconds} s of load on ${paths.join(', ')}`,
  });
}

/** Rewrites the title of three posts in place and polls the API until each new title is served. */
async function measureEdits(report: Report, base: string, corpus: CorpusInfo): Promise<void> {
  const slugs = [corpus.slugs[0], corpus.slugs[Math.floor(corpus.slugs.length / 2)], corpus.slugs[corpus.slugs.length - 1]] as string[];
  const client = createClient();
  const times: number[] = [];
  const problems: string[] = [];
  try {
    for (const [index, slug] of slugs.entries()) {
      const file = path.join(corpus.dir, corpus.fileOf[slug] as string);
      const marker = `benchedit${index}`;
      const title = `Edited ${marker}`;
      const text = readFileSync(file, 'utf8').replace(/^title(\s*[=:]\s*)"[^"]*"/m, (_, separator: string) => `title${separator}${JSON.stringify(title)}`);
      const url = `${base}/api/blog/posts/${slug}`;
      const written = performance.now();
      writeFileSync(file, text);
      for (;;) {
        const response = await client.get(url);
        if (parseJson<{ title?: string }>(response)?.title === title) break;
        if (performance.now() - written > 20_000) {
          problems.push(`${slug}: still the old title after 20 s`);
          break;
        }
        await delay(10);
      }
      times.push(performance.now() - written);
      const search = parseJson<{ total?: number }>(await client.get(`${base}/api/blog/posts?q=${marker}`));
      if (search?.total !== 1) problems.push(`q=${marker} (the new title) found ${search?.total} posts, expected 1`);
    }
  } finally {
    client.close();
  }
  const worst = Math.max(...times);
  report.add({
    section: SECTION,
    name: 'edited file served (worst of 3 edits)',
    value: formatMs(worst),
    target: `< ${EDIT_LIMIT_MS} ms`,
    verdict: worst < EDIT_LIMIT_MS && problems.length === 0 ? 'PASS' : 'FAIL',
    detail: [`each: ${times.map(formatMs).join(', ')}`, ...problems].join('; '),
  });
}
