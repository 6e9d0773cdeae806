// Blog `q` right after start, as a visitor meets it: `dist/cli.js serve` is started on a corpus of 1,000, 10,000
// and 100,000 posts and asked, from the moment it listens, 100 first-time queries of the corpus's everyday words (its
// most common words, never the same query twice, so no answer is served from cache), one after another. Each size
// starts twice on one data_dir: a first start (nothing in data_dir) and a restart. Per start: the index build time
// (the log's build_ms), the first answer (after a first start it waits for the index: docs/blog.md "Start-up and
// the load cache"), the median, p90 and maximum answer times, resident memory once settled, and how soon an edited
// post is found by `q` (which leaves that post changed for the restart, as a restart after some writing finds it).
// Every answer is checked against the one asked again once the index is ready: they must be the same.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import type { CorpusInfo } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { createClient, parseJson } from './lib/http-client.js';
import { createPrng } from './lib/prng.js';
import { delay, readMemory, startPostbox, waitForListening } from './lib/processes.js';
import { formatMs, type Report } from './lib/report.js';
import { median } from './lib/side-by-side.js';
import { cachedCorpus, corpusRoot, readEveryFile, waitForIndex } from './startup-scale.js';

const SECTION = 'search at start';
const MB = 1024 * 1024;
const QUERIES = 100;

/**
 * Targets by corpus size: answer times of first-time everyday-word queries right after start. The first answer of
 * a first start waits for the index build (firstMs); every other answer, and every one after a restart, is < maxMs.
 */
const TARGETS: Record<number, { medianMs: number; maxMs: number; firstMs: number }> = {
  10_000: { medianMs: 5, maxMs: 500, firstMs: 1000 },
  100_000: { medianMs: 20, maxMs: 500, firstMs: 5000 },
};

/** A /posts answer as the bench reads it. */
interface PostsAnswer {
  total: number;
  has_next: boolean;
  posts: Array<{ slug: string; lang: string }>;
}

interface Asked {
  word: string;
  ms: number;
  answer: PostsAnswer;
}

interface StartFigures {
  listeningMs: number;
  indexedMs: number | undefined;
  /** The build's own time, from the log (build_ms). */
  buildMs: number | undefined;
  asked: Asked[];
  rssBytes: number;
  editMs: number;
}

/** Runs every size in BENCH_SEARCH_SIZES (default 1000,10000,100000) and adds the figures to the report. */
export async function benchSearchAtStart(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog search right after start: first-time everyday-word queries from the moment postbox listens');
  const sizes = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
  for (const size of sizes) {
    const corpus = cachedCorpus(corpusRoot(), size);
    const words = everydayWords(corpus, QUERIES);
    report.note(`${size} posts: ${corpus.files} files, ${corpus.published} published; ${words.length} everyday words, e.g. ${words.slice(0, 5).join(', ')}`);
    const dir = path.join(context.tmpRoot, `search-at-start-${size}`);
    rmSync(dir, { recursive: true, force: true });
    const configFile = writeBlogConfig(dir, corpus.dir);
    readEveryFile(corpus.dir);
    for (const label of ['first start', 'restart']) {
      const figures = await measureStart(context, dir, configFile, corpus, words, label);
      addFigures(report, size, label, figures);
    }
  }
}

/**
 * The words of the corpus in most posts (the newest 2,000 looked at), as a visitor types them: letters only, in a
 * shuffled order (seeded, the same every run).
 */
function everydayWords(corpus: CorpusInfo, count: number): string[] {
  const postsWith = new Map<string, number>();
  for (const slug of corpus.slugs.slice(0, 2000)) {
    const text = readFileSync(path.join(corpus.dir, corpus.fileOf[slug]!), 'utf8');
    // The body: after the front matter's closing line (+++ or ---).
    const body = text.slice(text.indexOf('\n', text.indexOf(text.slice(0, 3), 3)) + 1);
    for (const word of new Set(body.toLowerCase().match(/\p{L}{2,}/gu) ?? [])) postsWith.set(word, (postsWith.get(word) ?? 0) + 1);
  }
  const common = [...postsWith].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([word]) => word);
  const prng = createPrng(count);
  for (let at = common.length - 1; at > 0; at -= 1) {
    const other = prng.int(0, at);
    [common[at], common[other]] = [common[other]!, common[at]!];
  }
  return common;
}

async function measureStart(context: BenchContext, dir: string, configFile: string, corpus: CorpusInfo, words: string[], label: string): Promise<StartFigures> {
  if (label === 'first start') rmSync(path.join(dir, 'data'), { recursive: true, force: true });
  const postbox = await startPostbox({
    configFile,
    logFile: path.join(dir, `postbox-${label.replace(' ', '-')}.log`),
    services: ['blog'],
    placement: context.cores.server,
    cpuProfileDir: context.cpuProfileDir,
    waitForListening: false,
  });
  try {
    const addresses = await waitForListening(postbox, ['blog'], 300_000);
    const listeningMs = performance.now() - postbox.spawnedAt;
    const base = `${addresses.blog}/api/blog/posts`;
    const client = createClient();
    const asked: Asked[] = [];
    try {
      for (const word of words) {
        const response = await client.get(`${base}?q=${encodeURIComponent(word)}`);
        const answer = parseJson<PostsAnswer>(response);
        if (response.status !== 200 || !answer) throw new Error(`q=${word}: ${response.status} ${response.body.toString('utf8').slice(0, 200)}`);
        asked.push({ word, ms: response.ms, answer });
      }
    } finally {
      client.close();
    }
    const indexedMs = await waitForIndex(postbox, 300_000);
    const buildMs = buildTime(postbox.logFile);
    await checkAnswers(base, asked);
    await delay(1000);
    const memory = readMemory(postbox.pid);
    const editMs = await measureEditFound(base, corpus, label);
    return { listeningMs, indexedMs, buildMs, asked, rssBytes: memory?.rss ?? NaN, editMs };
  } finally {
    await postbox.stop();
  }
}

/** The build_ms of the first blog_search_indexed line of the log. */
function buildTime(logFile: string): number | undefined {
  const line = readFileSync(logFile, 'utf8').split('\n').find((text) => text.includes('"blog_search_indexed"'));
  return line === undefined ? undefined : (JSON.parse(line) as { build_ms?: number }).build_ms;
}

/** Asks every query again once the index is ready (limit 21: a key of its own) and compares: the answers must be the same. */
async function checkAnswers(base: string, asked: Asked[]): Promise<void> {
  const client = createClient();
  const problems: string[] = [];
  try {
    for (const { word, answer } of asked) {
      const full = parseJson<PostsAnswer>(await client.get(`${base}?q=${encodeURIComponent(word)}&limit=21`))!;
      const slugs = (posts: PostsAnswer['posts']) => posts.map((post) => `${post.slug}/${post.lang}`).join(' ');
      const expected = slugs(full.posts.slice(0, answer.posts.length));
      if (slugs(answer.posts) !== expected) problems.push(`q=${word}: listed ${slugs(answer.posts).slice(0, 80)}, the complete answer ${expected.slice(0, 80)}`);
      if (answer.total !== full.total || answer.has_next !== full.total > 20) problems.push(`q=${word}: total ${answer.total}, once the index is ready ${full.total}`);
    }
  } finally {
    client.close();
  }
  if (problems.length > 0) throw new Error(`answers differ from the complete ones:\n${problems.slice(0, 10).join('\n')}`);
}

/** Writes a new word into one post's title and asks `q` for it until the post is found; then puts the file back. */
async function measureEditFound(base: string, corpus: CorpusInfo, label: string): Promise<number> {
  const slug = corpus.slugs[Math.floor(corpus.slugs.length / 3)]!;
  const file = path.join(corpus.dir, corpus.fileOf[slug]!);
  const original = readFileSync(file, 'utf8');
  const marker = `benchedit${label.replace(' ', '')}${Date.now()}`;
  const client = createClient();
  try {
    const written = performance.now();
    writeFileSync(file, original.replace(/^title(\s*[=:]\s*)"/m, (_, separator: string) => `title${separator}"${marker} `));
    for (;;) {
      const answer = parseJson<PostsAnswer>(await client.get(`${base}?q=${marker}`));
      if (answer?.total === 1 && answer.posts[0]?.slug === slug) return performance.now() - written;
      if (performance.now() - written > 30_000) return Infinity;
      await delay(10);
    }
  } finally {
    client.close();
    writeFileSync(file, original);
  }
}

function addFigures(report: Report, size: number, label: string, figures: StartFigures): void {
  const target = TARGETS[size];
  const times = figures.asked.map((asked) => asked.ms);
  const sorted = [...times].sort((a, b) => a - b);
  const p90 = sorted[Math.ceil(sorted.length * 0.9) - 1]!;
  const max = sorted[sorted.length - 1]!;
  // After a first start the first answer waits for the build; the others, and every one after a restart, do not.
  const waited = label === 'first start' ? times[0]! : 0;
  const rest = label === 'first start' ? times.slice(1) : times;
  const restMax = Math.max(...rest);
  const slowest = [...figures.asked].sort((a, b) => b.ms - a.ms).slice(0, 3).map((asked) => `${asked.word} ${formatMs(asked.ms)}`);
  const ok = target !== undefined && median(times) < target.medianMs && restMax < target.maxMs && waited < target.firstMs;
  report.add({
    section: SECTION,
    name: `${size / 1000}k ${label}: build / first answer / median / p90 / max`,
    value: `${figures.buildMs === undefined ? 'n/a' : formatMs(figures.buildMs)} / ${formatMs(times[0]!)} / ${formatMs(median(times))} / ${formatMs(p90)} / ${formatMs(max)}`,
    target: target ? `first < ${target.firstMs} ms, median < ${target.medianMs} ms, others < ${target.maxMs} ms` : '-',
    verdict: target ? (ok ? 'PASS' : 'FAIL') : 'INFO',
    detail:
      `every answer complete; slowest ${slowest.join(', ')}; listening after ${formatMs(figures.listeningMs)}, q index ready after ${figures.indexedMs === undefined ? 'n/a' : formatMs(figures.indexedMs)} (from spawn); ` +
      `VmRSS ${(figures.rssBytes / MB).toFixed(0)} MB once settled; an edited title found by q after ${formatMs(figures.editMs)}`,
  });
}
