// Blog start-up at 1,000, 10,000 and 100,000 posts: time from spawn until every post is listed and until the q
// index is ready, queries asked as soon as every post is listed (before the index is ready), resident memory once
// settled, the first searches, and how soon an edited file is served. Each
// size starts twice on the same data_dir (a first start, then a restart), and the growth from size to size is
// printed as a table. Corpora are kept between runs (BENCH_CORPUS_DIR), as 100,000 posts take a while to write.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { corpusShape, generateCorpus, SEARCH_TERMS, type CorpusInfo } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { createClient, parseJson } from './lib/http-client.js';
import { delay, readMemory, startPostbox, waitForListening, type RunningPostbox } from './lib/processes.js';
import { formatMs, type Report } from './lib/report.js';
import { median } from './lib/side-by-side.js';

const SECTION = 'startup scale';
const MB = 1024 * 1024;

/**
 * Targets by corpus size (docs/performance.md "Blog start-up by corpus size"); none for 1,000 posts: the growth is
 * what it shows.
 */
const TARGETS: Record<number, { startupMs: number; rssBytes: number; editMs: number }> = {
  10_000: { startupMs: 2000, rssBytes: 250 * MB, editMs: 2000 },
  100_000: { startupMs: 15_000, rssBytes: 1500 * MB, editMs: 2000 },
};

interface StartFigures {
  startupMs: number;
  listeningMs: number;
  indexedMs: number | undefined;
  rssBytes: number;
  peakBytes: number;
  /** Queries sent as soon as every post is listed, while the index is built (measureSearchesAtListing). */
  atListing: { firstMs: number; medianMs: number; p99Ms: number };
  firstSearchMs: number;
  editMs: number;
}

/** Runs every size in BENCH_SCALE_SIZES (default 1000,10000,100000) and adds the figures to the report. */
export async function benchStartupScale(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog start-up by corpus size: 1k, 10k, 100k posts');
  const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);
  const root = corpusRoot();
  const rows: Array<{ size: number; corpus: CorpusInfo; first: StartFigures; restart: StartFigures }> = [];
  for (const size of sizes) {
    const corpus = cachedCorpus(root, size);
    report.note(`${size} posts: ${corpus.files} files, ${(corpus.bytes / MB).toFixed(0)} MB of Markdown, ${corpus.published} published (in ${corpus.dir})`);
    const dir = path.join(context.tmpRoot, `scale-${size}`);
    rmSync(dir, { recursive: true, force: true });
    const configFile = writeBlogConfig(dir, corpus.dir);
    // What is measured is postbox's work, not the disk's: a first start on files the page cache has let go of
    // (a larger corpus read since) took twice as long at 100,000 posts, and as much at 10,000.
    const warmMs = readEveryFile(corpus.dir);
    report.note(`${size} posts: every file read once beforehand, to have them in the page cache (${formatMs(warmMs)})`);
    const first = await measureStart(context, dir, configFile, corpus, 'first');
    const restart = await measureStart(context, dir, configFile, corpus, 'restart');
    rows.push({ size, corpus, first, restart });
    for (const [name, figures] of [['first start', first], ['restart', restart]] as const) addVerdicts(report, size, name, figures);
    // The same first start free to use every core, as a server's would be: V8 compiles and collects garbage on
    // threads of its own, which pinned to the server's one core share it with the load.
    if (context.cores.server.cpus !== undefined) {
      rmSync(path.join(dir, 'data'), { recursive: true, force: true });
      const unpinned = { ...context.cores.server, cpus: undefined };
      addVerdicts(report, size, 'first start, every core', await measureStart(context, dir, configFile, corpus, 'first-every-core', unpinned));
    }
  }
  printGrowth(report, rows);
}

/** Where corpora are kept between runs (BENCH_CORPUS_DIR). */
export function corpusRoot(): string {
  return process.env.BENCH_CORPUS_DIR ?? path.join(os.tmpdir(), 'postbox-bench-corpora');
}

/** Reads every file under `dir` once; the milliseconds it took. */
export function readEveryFile(dir: string): number {
  const started = performance.now();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) readFileSync(path.join(entry.parentPath, entry.name));
  }
  return performance.now() - started;
}

/** The corpus of `size` posts under `root`, written once; info.json marks a complete one. */
export function cachedCorpus(root: string, size: number): CorpusInfo {
  const name = corpusShape() === 'narrow' ? `posts-${size}` : `posts-${size}-${corpusShape()}`;
  const dir = path.join(root, name);
  const infoFile = path.join(root, `${name}.json`);
  if (existsSync(infoFile)) return JSON.parse(readFileSync(infoFile, 'utf8')) as CorpusInfo;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const info = generateCorpus(dir, { posts: size, seed: size });
  writeFileSync(infoFile, JSON.stringify(info));
  return info;
}

async function measureStart(context: BenchContext, dir: string, configFile: string, corpus: CorpusInfo, label: string, placement = context.cores.server): Promise<StartFigures> {
  const postbox = await startPostbox({
    configFile,
    logFile: path.join(dir, `postbox-${label}.log`),
    services: ['blog'],
    placement,
    cpuProfileDir: context.cpuProfileDir,
    waitForListening: false,
  });
  try {
    const addresses = await waitForListening(postbox, ['blog'], 300_000);
    const listeningMs = performance.now() - postbox.spawnedAt;
    const base = addresses.blog as string;
    const startupMs = await waitForEveryPost(postbox, base, corpus);
    const atListing = await measureSearchesAtListing(base, corpus);
    const indexedMs = await waitForIndex(postbox, 120_000);
    const firstSearchMs = await measureFirstSearches(base, corpus);
    await delay(1000);
    const memory = readMemory(postbox.pid);
    const editMs = await measureEdit(base, corpus, label);
    return { startupMs, listeningMs, indexedMs, rssBytes: memory?.rss ?? NaN, peakBytes: memory?.peak ?? NaN, atListing, firstSearchMs, editMs };
  } finally {
    await postbox.stop();
  }
}

async function waitForEveryPost(postbox: RunningPostbox, base: string, corpus: CorpusInfo): Promise<number> {
  const client = createClient();
  try {
    const deadline = performance.now() + 300_000;
    for (;;) {
      const response = await client.get(`${base}/api/blog/posts`).catch(() => undefined);
      if (response?.status === 200 && parseJson<{ total?: number }>(response)?.total === corpus.published) return performance.now() - postbox.spawnedAt;
      if (performance.now() > deadline) throw new Error(`not every post listed within 300 s`);
      await delay(5);
    }
  } finally {
    client.close();
  }
}

/** Milliseconds from spawn to the `blog_search_indexed` log line (polled, so a few ms late at most). */
export async function waitForIndex(postbox: RunningPostbox, timeoutMs: number): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (readFileSync(postbox.logFile, 'utf8').includes('"blog_search_indexed"')) return performance.now() - postbox.spawnedAt;
    await delay(20);
  }
  return undefined;
}

/**
 * Queries sent one after another as soon as every post is listed, while the index is built: pages 2 to 4 of each
 * search term, keys the later first searches (page 1) do not share, with totals the corpus knows. The first waits
 * for the index after a first start; the figures are its time and the median and p99 of all of them.
 */
async function measureSearchesAtListing(base: string, corpus: CorpusInfo): Promise<{ firstMs: number; medianMs: number; p99Ms: number }> {
  const client = createClient();
  const times: number[] = [];
  try {
    for (const page of [2, 3, 4]) {
      for (const { word } of SEARCH_TERMS) {
        const response = await client.get(`${base}/api/blog/posts?q=${word}&page=${page}`);
        const answer = parseJson<{ total?: number }>(response);
        const expected = corpus.termCounts[word]!;
        if (answer?.total !== expected) throw new Error(`q=${word}&page=${page}: total ${answer?.total}, the corpus has ${expected}`);
        times.push(response.ms);
      }
    }
  } finally {
    client.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { firstMs: times[0]!, medianMs: median(times), p99Ms: sorted[Math.ceil(sorted.length * 0.99) - 1]! };
}

/** Median of each search term asked for the first time, once the index is ready. */
async function measureFirstSearches(base: string, corpus: CorpusInfo): Promise<number> {
  const client = createClient();
  const times: number[] = [];
  try {
    for (const { word } of SEARCH_TERMS) {
      const response = await client.get(`${base}/api/blog/posts?q=${word}`);
      const total = parseJson<{ total?: number }>(response)?.total;
      if (total !== corpus.termCounts[word]) throw new Error(`q=${word}: total ${total}, the corpus has ${corpus.termCounts[word]}`);
      times.push(response.ms);
    }
  } finally {
    client.close();
  }
  return median(times);
}

/** Rewrites one post's title, polls its detail until the new title is served, then puts the file back. */
async function measureEdit(base: string, corpus: CorpusInfo, label: string): Promise<number> {
  const slug = corpus.slugs[Math.floor(corpus.slugs.length / 2)] as string;
  const file = path.join(corpus.dir, corpus.fileOf[slug] as string);
  const original = readFileSync(file, 'utf8');
  const title = `Edited ${label} ${Date.now()}`;
  const client = createClient();
  try {
    const written = performance.now();
    writeFileSync(file, original.replace(/^title(\s*[=:]\s*)"[^"]*"/m, (_, separator: string) => `title${separator}${JSON.stringify(title)}`));
    for (;;) {
      const response = await client.get(`${base}/api/blog/posts/${slug}`);
      if (parseJson<{ title?: string }>(response)?.title === title) return performance.now() - written;
      if (performance.now() - written > 30_000) return Infinity;
      await delay(10);
    }
  } finally {
    client.close();
    writeFileSync(file, original);
  }
}

function addVerdicts(report: Report, size: number, name: string, figures: StartFigures): void {
  const target = TARGETS[size];
  const verdict = (ok: boolean) => (target ? (ok ? 'PASS' : 'FAIL') : 'INFO');
  const label = `${size / 1000}k ${name}`;
  report.add({
    section: SECTION,
    name: `${label}: spawn to every post listed`,
    value: formatMs(figures.startupMs),
    target: target ? `< ${formatMs(target.startupMs)}` : '-',
    verdict: verdict(figures.startupMs < (target?.startupMs ?? 0)),
    detail:
      `listening after ${formatMs(figures.listeningMs)}; q index ready after ${figures.indexedMs === undefined ? 'n/a' : formatMs(figures.indexedMs)}; ` +
      `30 q at listing: the first ${formatMs(figures.atListing.firstMs)}, median ${formatMs(figures.atListing.medianMs)}, p99 ${formatMs(figures.atListing.p99Ms)}; ` +
      `first searches median ${formatMs(figures.firstSearchMs)}`,
  });
  report.add({
    section: SECTION,
    name: `${label}: resident memory, settled (VmRSS)`,
    value: `${(figures.rssBytes / MB).toFixed(0)} MB`,
    target: target ? `< ${target.rssBytes / MB} MB` : '-',
    verdict: verdict(figures.rssBytes < (target?.rssBytes ?? 0)),
    detail: `peak (VmHWM) ${(figures.peakBytes / MB).toFixed(0)} MB`,
  });
  report.add({
    section: SECTION,
    name: `${label}: edited file served`,
    value: formatMs(figures.editMs),
    target: target ? `< ${formatMs(target.editMs)}` : '-',
    verdict: verdict(figures.editMs < (target?.editMs ?? 0)),
  });
}

function printGrowth(report: Report, rows: Array<{ size: number; corpus: CorpusInfo; first: StartFigures; restart: StartFigures }>): void {
  report.note('growth (first start | restart):');
  report.note('posts     MB md   listed s        index s         RSS MB        peak MB       1st q at listing s 1st q ms   edit ms');
  const seconds = (ms: number | undefined) => (ms === undefined ? 'n/a' : (ms / 1000).toFixed(2));
  for (const { size, corpus, first, restart } of rows) {
    const pair = (a: string, b: string) => `${a} | ${b}`.padEnd(16);
    report.note(
      `${String(size).padEnd(9)} ${(corpus.bytes / MB).toFixed(0).padEnd(7)} ${pair(seconds(first.startupMs), seconds(restart.startupMs))}${pair(seconds(first.indexedMs), seconds(restart.indexedMs))}` +
        `${pair((first.rssBytes / MB).toFixed(0), (restart.rssBytes / MB).toFixed(0))}${pair((first.peakBytes / MB).toFixed(0), (restart.peakBytes / MB).toFixed(0))}` +
        `${pair(seconds(first.atListing.firstMs), seconds(restart.atListing.firstMs))}` +
        `${first.firstSearchMs.toFixed(1).padEnd(10)} ${Math.round(first.editMs)} | ${Math.round(restart.editMs)}`,
    );
  }
}
