// The blog's content (docs/blog.md "Changes are picked up on their own"): loads content_dir into an immutable snapshot of
// prepared answers, keeps it current as files change and scheduled posts come due, and builds the `q` index in the
// background. The HTTP service (blog-service.ts) serves the snapshot; campaigns and /admin read posts from here.
import { performance } from 'node:perf_hooks';
import type { BlogConfig, SiteConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { VERSION } from '../version.js';
import { createBackgroundTurns } from './catalog/background-turns.js';
import { buildCatalog, isCatalogCurrent } from './catalog/catalog.js';
import { createSearchIndexer, RESTORE_STEP_MS } from './catalog/search-indexer.js';
import { createSearchWordsStore } from './catalog/search-words-file.js';
import { listVersionStates } from './catalog/version-states.js';
import { parsePostFileName } from './content/file-name.js';
import { createLanguageNames } from './content/language.js';
import { createPostLibrary, type RefreshResult } from './content/library.js';
import { createLoadCacheStore } from './content/load-cache.js';
import { createMarkdownTools } from './content/markdown.js';
import { createReleaseTimer } from './content/release-timer.js';
import { systemTimers } from '../kit/timers.js';
import type { Timers } from '../ports.js';
import { createReloader } from './content/reloader.js';
import { createRescanTimer } from './content/rescan-timer.js';
import { createContentWatcher, type ContentWatcher } from './content/watch.js';
import { createResponseFactory, type ResponseFactory } from './http/prepared-response.js';
import { buildSnapshot, createSnapshotMemo, type BlogSnapshot, type SnapshotTools } from './http/snapshot.js';
import type { PostVersionState } from './post-version-state.js';
import { findPublishedPost, listPublishedVersions, type PublishedPost, type PublishedVersion } from './published-post.js';

/** What the blog is configured with. */
export interface BlogSettings {
  site: SiteConfig;
  blog: BlogConfig;
}

/** What the blog's content works through. */
export interface BlogContentDeps {
  logger: Logger;
  /** Headers every post detail answer carries besides its own (the webmention endpoint's Link, docs/comments.md). */
  detailHeaders?: Readonly<Record<string, string>>;
  /** Hears each new snapshot once it is served (the webmentions sent for new and changed posts, docs/comments.md). */
  onSnapshot?: (snapshot: BlogSnapshot) => void;
  /**
   * The moment that decides which posts are published (a future `date` is scheduled) and dates the RSS
   * lastBuildDate of a feed without posts; the system clock by default.
   */
  clock?: () => Date;
  /** Timers for publishing scheduled posts on time; Node's by default. */
  timers?: Timers;
  /** Quiet time after a file event before the content is rescanned (default 100 ms). */
  debounceMs?: number;
  /** Period of the safety-net rescan (default 5 s, longer when rescans are slow; 0 turns it off). */
  rescanIntervalMs?: number;
  /**
   * data_dir/blog-cache.json: what was parsed of each post file, so that a restart reads only changed files
   * (content/load-cache.ts). Without it every start reads every file.
   */
  loadCacheFile?: string;
  /**
   * Where the `q` index keeps each post's words from one start to the next (catalog/search-words-file.ts). Without
   * it the first index after each start reads every post file.
   */
  searchWordsFile?: string;
  /**
   * Milliseconds of work between two pauses of the `q` index build (catalog/step-clock.ts STEP_MS by default): how
   * long another request may wait behind it.
   */
  searchStepMs?: number;
}

/** The blog's posts as they are now, for its HTTP service, /admin and campaigns. */
export interface BlogContent {
  /** The snapshot served now: the catalog and its prepared answers. */
  current(): BlogSnapshot;
  /** How prepared answers are made (Cache-Control from blog.cache_max_age). */
  respond: ResponseFactory;
  /**
   * Every post file under content_dir as last loaded (within 2 s of a change on disk), with its state now:
   * published, draft, scheduled, or broken with the reason it is skipped. Read-only; in path order.
   */
  listAllVersions(): PostVersionState[];
  /**
   * A published version as the content is now, for a campaign: the slug's primary version without `lang`, else
   * the version in `lang`. Drafts, scheduled versions and unknown slugs or languages give undefined.
   */
  findPublishedPost(slug: string, lang?: string): PublishedPost | undefined;
  /** Every version published now (the newsletter's automations look for new ones), newest first. */
  listPublished(): PublishedVersion[];
  /** Stops watching and indexing, and keeps what was parsed for the next start. */
  close(): Promise<void>;
}

/** Loads the content and keeps it current; resolves once the first load is done. */
export async function createBlogContent(settings: BlogSettings, deps: BlogContentDeps): Promise<BlogContent> {
  const { blog, site } = settings;
  const { logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  const markdown = createMarkdownTools({ iframeHosts: blog.allow_iframes_from });
  const languageNames = createLanguageNames();
  const cacheKey = {
    version: VERSION,
    contentDir: blog.content_dir,
    defaultLanguage: site.language,
    baseUrl: site.base_url,
    unicode: process.versions.unicode ?? '',
  };
  // The index build, the summaries' warm-up and the files' writes take one step per event-loop turn between them.
  const takeTurn = createBackgroundTurns();
  const loadCache = deps.loadCacheFile ? createLoadCacheStore(deps.loadCacheFile, cacheKey, undefined, takeTurn) : undefined;
  // The q index is built after each catalog is served, in the background; a q query waits for it.
  const searchIndexer = createSearchIndexer({
    words: deps.searchWordsFile ? createSearchWordsStore(deps.searchWordsFile, cacheKey) : undefined,
    stepMs: deps.searchStepMs,
    pause: takeTurn,
    restoreStepMs: deps.searchStepMs ?? RESTORE_STEP_MS,
    onError: (error) => logger.error({ err: error }, 'blog search index build failed'),
    onSaveError: (error) =>
      logger.warn({ event: 'blog_search_words_not_written', reason: (error as Error).message }, 'blog search words could not be written; the next start reads every post file for q'),
  });
  // The posts' words are read as the posts are loaded, so that the index build reads no file (content/library.ts).
  const library = createPostLibrary(blog.content_dir, { markdown, languageNames, defaultLanguage: site.language, baseUrl: site.base_url }, logger, loadCache, searchIndexer.takeText);
  let loaded: RefreshResult | null = null;
  const respond = createResponseFactory(blog.cache_max_age);
  const tools: SnapshotTools = {
    respond,
    render: markdown.render,
    memo: createSnapshotMemo(),
    detailHeaders: deps.detailHeaders,
    searchIndexOf: searchIndexer.indexFor,
    latestSearchIndex: searchIndexer.latest,
    matcherFor: searchIndexer.matcherFor,
    whenIndexed: searchIndexer.whenIndexed,
  };
  let snapshot: BlogSnapshot | null = null;
  let watcher: ContentWatcher | null = null;
  let directories: readonly string[] = [];
  let warming: Promise<void> = Promise.resolve();
  let stopped = false;
  // Whether the snapshot shows every change the library reported: only then is the next catalog built from the
  // previous one and the slugs the library says changed (a reload that failed in between looks at every slug).
  let caughtUp = true;
  // Two reloads may overlap (reloader.ts): from the end of the library's refresh to the new snapshot, each runs
  // in one event-loop turn, so snapshots follow one another in the order the library was brought up to date.
  const reload = async (changedPaths?: readonly string[]) => {
    const started = performance.now();
    const result = await library.refresh(changedPaths);
    loaded = result;
    directories = result.directories;
    watcher?.watchDirectories(directories);
    const now = clock();
    // Unchanged files still make a new snapshot when a scheduled post has come due (or the clock went back).
    if (!result.changed && snapshot && isCatalogCurrent(snapshot.catalog, now.getTime())) return;
    const changedSlugs = caughtUp ? result.changedSlugs : undefined;
    caughtUp = false;
    const next = buildSnapshot(buildCatalog(result.versions, site, blog, now.getTime(), snapshot?.catalog, changedSlugs), tools, now);
    snapshot = next;
    caughtUp = true;
    deps.onSnapshot?.(next);
    releases.arm(next.catalog.nextRelease);
    const duration = Math.round(performance.now() - started);
    logger.info(
      { event: 'blog_content_loaded', posts: next.catalog.published.length, files_read: result.filesRead, files_from_cache: result.filesFromCache, duration_ms: duration },
      'blog content loaded',
    );
    const indexing = performance.now();
    searchIndexer.index(next.catalog);
    // Once every summary is derived, the load cache can keep the excerpts too. The warm-up waits for the q index:
    // a q query waits for that, a summary is made when first asked for.
    const stale = () => stopped || snapshot !== next;
    warming = searchIndexer
      .whenIndexed(next.catalog)
      .then(() => (stale() ? undefined : next.warmUp(stale, takeTurn)))
      .then(() => (stale() ? undefined : library.saveCache()));
    // One line when the q index of this content is ready (not when a newer content took its place first).
    void searchIndexer.idle().then(() => {
      if (!stopped && searchIndexer.indexFor(next.catalog)) {
        logger.info(
          {
            event: 'blog_search_indexed',
            posts: next.catalog.published.length,
            texts_read: searchIndexer.textsRead(),
            build_ms: Math.round(performance.now() - indexing),
            duration_ms: Math.round(performance.now() - started),
          },
          'blog search index ready',
        );
      }
    });
  };
  const reloader = createReloader(reload, (error) => logger.error({ err: error }, 'blog content reload failed'));
  // When the earliest scheduled post comes due, the catalog is built again (no file needs a look: an empty list).
  const releases = createReleaseTimer({ timers: deps.timers ?? systemTimers, now: () => clock().getTime(), onRelease: () => reloader.request([]) });
  // The words file first, so that the posts the first load reads are numbered as its words are; the first load runs
  // alone; only then do file events, the periodic rescan and releases ask for reloads.
  await searchIndexer.takeWordsFile();
  await reload();
  // A restart with no post changed answers `q` from the index kept in data_dir from its first request: the start
  // waits for it to be read (a fraction of the posts' loading; docs/blog.md "Start-up and the load cache").
  await searchIndexer.restored();
  const rescans = createRescanTimer({
    intervalMs: deps.rescanIntervalMs ?? 5000,
    maxShare: 0.02,
    now: () => performance.now(),
    rescan: async () => {
      reloader.request();
      await reloader.idle();
    },
  });
  watcher = createContentWatcher({
    root: blog.content_dir,
    onChange: (paths) => reloader.request(paths),
    debounceMs: deps.debounceMs ?? 100,
    onWatchError: (directory, error) =>
      logger.warn({ event: 'watch_failed', directory, reason: error.message }, 'cannot watch a content folder; changes there are seen by the periodic rescan'),
  });
  watcher.watchDirectories(directories);

  const current = () => snapshot!;
  return {
    current,
    respond,
    listAllVersions: () =>
      listVersionStates(loaded!.posts, loaded!.skipped, clock().getTime(), {
        parseFileName: (file) => parsePostFileName(file, languageNames),
        defaultLanguage: site.language,
      }),
    findPublishedPost: (slug, lang) => findPublishedPost(current().catalog, current().html, slug, lang),
    listPublished: () => listPublishedVersions(current().catalog),
    close: async () => {
      stopped = true;
      rescans.close();
      releases.close();
      watcher?.close();
      await reloader.close();
      await warming;
      await searchIndexer.close();
      // A stop before the warm-up ended still leaves the next start what was parsed.
      await library.saveCache();
    },
  };
}
