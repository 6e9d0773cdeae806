// The `q` index build in process, at 1,000, 10,000 and 100,000 posts (BENCH_SEARCH_SIZES): the posts are loaded
// through the library as the service loads them, each post's words read as it is loaded
// (catalog/search-indexer.ts takeText), then the catalog's index is built to the end. Printed per size: the CPU
// time (user + system) and wall time of the load and of the build. CPU time moves less than wall time on a shared
// machine; neither has a target here (search-at-start has them, through a real server).
import { buildCatalog, groupBySlug } from '../src/blog/catalog/catalog.js';
import { createSearchIndexer } from '../src/blog/catalog/search-indexer.js';
import { createLanguageNames } from '../src/blog/content/language.js';
import { createPostLibrary } from '../src/blog/content/library.js';
import { createMarkdownTools } from '../src/blog/content/markdown.js';
import { loadConfigFile } from '../src/config/load.js';
import { createSilentLogger } from '../src/kit/log.js';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { writeBlogConfig } from './lib/config-files.js';
import { formatMs } from './lib/report.js';
import { cachedCorpus, corpusRoot, readEveryFile } from './startup-scale.js';

const SECTION = 'search build';

export async function benchSearchBuild(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog search index build in process: load (each post\'s words read as it is loaded), then the build');
  const sizes = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
  for (const size of sizes) {
    const corpus = cachedCorpus(corpusRoot(), size);
    readEveryFile(corpus.dir);
    const loaded = await loadConfigFile(writeBlogConfig(path.join(context.tmpRoot, `search-build-${size}`), corpus.dir), {});
    if (!loaded.ok) throw new Error(`bench config: ${JSON.stringify(loaded.problems)}`);
    const { site, blog } = loaded.config;
    const indexer = createSearchIndexer({ onError: (error) => { throw error; } });
    const parseContext = { markdown: createMarkdownTools(), languageNames: createLanguageNames(), defaultLanguage: site!.language, baseUrl: site!.base_url };
    const library = createPostLibrary(corpus.dir, parseContext, createSilentLogger(), undefined, indexer.takeText);
    await indexer.takeWordsFile();
    const load = await timed(() => library.refresh());
    const catalog = buildCatalog(groupBySlug(load.value.posts), site!, blog!, Date.now());
    const build = await timed(async () => {
      indexer.index(catalog);
      await indexer.idle();
    });
    await indexer.close();
    report.add({
      section: SECTION,
      name: `${size / 1000}k posts: build CPU / wall`,
      value: `${formatMs(build.cpuMs)} / ${formatMs(build.wallMs)}`,
      target: '-',
      verdict: 'INFO',
      detail: `${catalog.published.length} posts indexed, ${(corpus.bytes / 1024 / 1024).toFixed(0)} MB of Markdown; the load before it ${formatMs(load.cpuMs)} CPU / ${formatMs(load.wallMs)} wall`,
    });
  }
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}
