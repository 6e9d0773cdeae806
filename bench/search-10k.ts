// Blog `q` search on 10,000 posts, in process: first-time queries (no response cache) answered by the index
// (src/blog/catalog/search-index.ts) and, side by side in the same run, by the scan it replaced
// (reference/pair-filter-scan.ts), per class of query; the index's build time and memory per post.
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildCatalog, groupBySlug, type Catalog, type CatalogEntry } from '../src/blog/catalog/catalog.js';
import { selectPage, type PostsQuery } from '../src/blog/catalog/query.js';
import { measureGramIndex } from '../src/blog/catalog/gram-index.js';
import { buildSearchIndex, createWordStore, indexSteps, measureSearchIndex, type SearchIndex, type Searchable } from '../src/blog/catalog/search-index.js';
import { searchTerms } from '../src/blog/catalog/search.js';
import { createLanguageNames } from '../src/blog/content/language.js';
import { createPostLibrary } from '../src/blog/content/library.js';
import { createMarkdownTools } from '../src/blog/content/markdown.js';
import type { PostVersion } from '../src/blog/content/post.js';
import { loadConfigFile } from '../src/config/load.js';
import { createSilentLogger } from '../src/kit/log.js';
import type { BenchContext } from './lib/context.js';
import { writeBlogConfig } from './lib/config-files.js';
import { generateCorpus } from './lib/corpus.js';
import { createPrng, type Prng } from './lib/prng.js';
import { formatBytes, formatMs } from './lib/report.js';
import { median } from './lib/side-by-side.js';
import { createSearchFilter, type SearchFilter } from './reference/pair-filter.js';
import { matchesAllTerms, prepareTerm } from './reference/pair-filter-scan.js';

const SECTION = 'search 10k';
const MEDIAN_LIMIT_MS = 5;
const P99_LIMIT_MS = 20;
const QUERIES_PER_CLASS = 100;

/** Runs the search figures and adds them to the report. */
export async function benchSearch10k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog search, 10,000 posts: first-time q queries, index against the scan it replaced');
  const dir = path.join(context.tmpRoot, 'search-10k');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: 10_000, seed: 10_000 });
  const loaded = await loadConfigFile(writeBlogConfig(dir, corpus.dir), {});
  if (!loaded.ok) throw new Error(`bench config: ${JSON.stringify(loaded.problems)}`);
  const { site, blog } = loaded.config;
  const parseContext = { markdown: createMarkdownTools(), languageNames: createLanguageNames(), defaultLanguage: site!.language, baseUrl: site!.base_url };
  const logger = createSilentLogger();
  const { posts } = await createPostLibrary(corpus.dir, parseContext, logger).refresh();
  const catalog = buildCatalog(groupBySlug(posts), site!, blog!, Date.now());
  report.note(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MB, ${catalog.published.length} published versions indexed`);

  const index = measureBuild(context, catalog);
  const started = performance.now();
  const filters = new Map(catalog.published.map((entry) => [entry.post, createSearchFilter(entry.post.searchText)]));
  report.note(`the old scan's pair filters took ${formatMs(performance.now() - started)} to build (512 bytes a post)`);
  const classes = createQueryClasses(catalog, createPrng(16));
  // Queries outside every class first, so that the figures are not the compiler's first pass over each path.
  const { warmUp, ...measured } = classes;
  for (const q of warmUp!) {
    const query: PostsQuery = { lang: undefined, tag: undefined, terms: searchTerms(q), page: 1, limit: 20 };
    selectPage(catalog.primaries, query, index);
    selectPage(catalog.primaries, query, null);
    scanTotal(catalog.primaries, filters, query.terms);
  }
  for (const [name, queries] of Object.entries(measured)) measureClass(context, catalog, index, filters, name, queries);
}

/** Build time from scratch (median of 3), rebuild after one edited post, and the index's memory per post. */
function measureBuild(context: BenchContext, catalog: Catalog): SearchIndex {
  const posts: Searchable[] = catalog.published.map((entry) => entry.post);
  const gc = exposeGc();
  const builds: number[] = [];
  let before = 0;
  let after = 0;
  // Resident memory around the first build only: later builds reuse the pages earlier ones left free.
  gc();
  const rssBefore = process.memoryUsage().rss;
  let index = buildSearchIndex(posts);
  gc();
  const rssAfter = process.memoryUsage().rss;
  for (let round = 0; round < 3; round += 1) {
    index = undefined as unknown as SearchIndex;
    gc();
    before = heapAndBuffers();
    const started = performance.now();
    index = buildSearchIndex(posts);
    builds.push(performance.now() - started);
    gc();
    after = heapAndBuffers();
  }
  // As the server builds it: step by step, each step a stretch requests wait behind.
  const stepTimes: number[] = [];
  const steps = indexSteps(posts, undefined, createWordStore());
  for (let started = performance.now(); !steps.next().done; started = performance.now()) stepTimes.push(performance.now() - started);
  const edited = [...posts];
  edited[Math.floor(edited.length / 2)] = { searchText: `${posts[Math.floor(posts.length / 2)]!.searchText} benchedit` };
  const rebuilds: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    buildSearchIndex(round % 2 === 0 ? edited : posts, index);
    rebuilds.push(performance.now() - started);
  }
  const bytes = measureSearchIndex(index);
  const vocabulary = measureGramIndex(index.vocabulary);
  const perPost = (value: number) => formatBytes(value / posts.length);
  context.report.add({
    section: SECTION,
    name: 'index build, every post read',
    value: formatMs(median(builds)),
    target: '-',
    verdict: 'INFO',
    detail: `${posts.length} versions; runs ${builds.map(formatMs).join(', ')}; in ${stepTimes.length} steps, the longest ${formatMs(Math.max(...stepTimes))} (median ${formatMs(median(stepTimes))}); with the previous index after one edited post (a new word in it), then unchanged, then edited: ${rebuilds.map(formatMs).join(', ')}`,
  });
  context.report.add({
    section: SECTION,
    name: 'index memory per post',
    value: perPost(after - before),
    target: '-',
    verdict: 'INFO',
    detail:
      `heap and array buffers after a build minus before it, after GC: ${formatBytes(after - before)} in all (resident memory around the first build, after GC: ${formatBytes(rssAfter - rssBefore)}, ${perPost(rssAfter - rssBefore)} a post); posting lists of words ${perPost(bytes.postings)}, ` +
      `each post's word list ${perPost(bytes.wordLists)}; ${bytes.wordCount} distinct words (${formatBytes(bytes.words)} of text), their trigram index ` +
      `${formatBytes(vocabulary.postings)} and gram tables ${formatBytes(vocabulary.tables)}`,
  });
  return index;
}

function heapAndBuffers(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** A gc() for the memory figure; V8 lets a running process turn the flag on for new contexts. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Distinct queries per class, from the words of the corpus: the most common words, the least common ones, two
 * or three words together (mostly common ones), and terms of one or two letters.
 */
function createQueryClasses(catalog: Catalog, prng: Prng): Record<string, string[]> {
  const postsWith = new Map<string, number>();
  for (const entry of catalog.primaries) {
    for (const word of new Set(entry.post.searchText.match(/\p{L}+/gu) ?? [])) postsWith.set(word, (postsWith.get(word) ?? 0) + 1);
  }
  const byCount = [...postsWith].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
  const distinct = (make: () => string) => {
    const queries = new Set<string>();
    for (let tries = 0; queries.size < QUERIES_PER_CLASS && tries < 100 * QUERIES_PER_CLASS; tries += 1) queries.add(make());
    return [...queries];
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return {
    warmUp: [...'0123456789', ...byCount.slice(QUERIES_PER_CLASS, QUERIES_PER_CLASS + 5), ...byCount.slice(1000, 1005), 'é', 'ß'],
    'common words': byCount.slice(0, QUERIES_PER_CLASS),
    'rare words': byCount.slice(-QUERIES_PER_CLASS),
    '2-3 word queries': distinct(() =>
      Array.from({ length: prng.int(2, 3) }, () => byCount[Math.floor(Math.min(byCount.length, 2000) * prng.next() ** 2)]).join(' '),
    ),
    '1-2 character terms': [...letters, ...distinct(() => prng.pick([...letters]) + prng.pick([...letters])).slice(0, QUERIES_PER_CLASS - letters.length)],
  };
}

/** Each query once through the index and once through the old scan, alternating which goes first. */
function measureClass(context: BenchContext, catalog: Catalog, index: SearchIndex, filters: Map<PostVersion, SearchFilter>, name: string, queries: string[]): void {
  const indexed: number[] = [];
  const scanned: number[] = [];
  const plain: number[] = [];
  const mismatches: string[] = [];
  const totals: number[] = [];
  queries.forEach((q, at) => {
    const query: PostsQuery = { lang: undefined, tag: undefined, terms: searchTerms(q), page: 1, limit: 20 };
    const runIndex = () => timed(indexed, () => selectPage(catalog.primaries, query, index).total);
    const runScan = () => timed(scanned, () => scanTotal(catalog.primaries, filters, query.terms));
    const runPlain = () => timed(plain, () => selectPage(catalog.primaries, query, null).total);
    const [first, second, third] = at % 2 === 0 ? [runIndex(), runScan(), runPlain()] : [runPlain(), runScan(), runIndex()];
    if (first !== second || first !== third) mismatches.push(`q=${q}: ${first} against ${second} and ${third}`);
    totals.push(first);
  });
  const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;
  const ok = median(indexed) < MEDIAN_LIMIT_MS && p99(indexed) < P99_LIMIT_MS && mismatches.length === 0;
  context.report.add({
    section: SECTION,
    name: `${name}: median / p99, index`,
    value: `${formatMs(median(indexed))} / ${formatMs(p99(indexed))}`,
    target: `< ${MEDIAN_LIMIT_MS} / < ${P99_LIMIT_MS} ms`,
    verdict: ok ? 'PASS' : 'FAIL',
    detail: [`slowest ${slowest(queries, indexed)}`, `old scan ${formatMs(median(scanned))} / ${formatMs(p99(scanned))}`, `plain scan (before the index is ready) ${formatMs(median(plain))} / ${formatMs(p99(plain))}`, `${queries.length} distinct queries matching ${Math.min(...totals)} to ${Math.max(...totals)} posts (median ${median(totals)}), e.g. ${queries.slice(0, 3).map((q) => JSON.stringify(q)).join(', ')}`, ...mismatches.slice(0, 5)].join('; '),
  });
}

/** The three slowest queries with their times, to tell a costly query from a pause of the machine. */
function slowest(queries: string[], times: number[]): string {
  return times
    .map((time, at) => ({ time, query: queries[at]! }))
    .sort((a, b) => b.time - a.time)
    .slice(0, 3)
    .map(({ time, query }) => `${JSON.stringify(query)} ${formatMs(time)}`)
    .join(', ');
}

function timed(into: number[], run: () => number): number {
  const started = performance.now();
  const total = run();
  into.push(performance.now() - started);
  return total;
}

/** The total the old selectPage gave: every candidate scanned after its pair filter. */
function scanTotal(candidates: readonly CatalogEntry[], filters: Map<PostVersion, SearchFilter>, terms: string[]): number {
  const prepared = terms.map(prepareTerm);
  return candidates.filter((entry) => matchesAllTerms(entry.post.searchText, filters.get(entry.post)!, prepared)).length;
}
