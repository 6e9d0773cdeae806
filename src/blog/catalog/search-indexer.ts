// Builds the `q` index of each catalog off the start-up and request paths: after the catalog is served, a
// slice of posts per event-loop turn (search-index.ts indexSteps), so a request waits for one slice at most.
// Until the index of a catalog is ready, `q` over that catalog is answered by the plain scan (plain-search.ts),
// which gives the same answers; an index is only ever used for the catalog it was built from.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from './catalog.js';
import { createWordStore, indexSteps, matchesEveryTerm, type Searchable, type SearchIndex } from './search-index.js';

export interface SearchIndexer {
  /** The index of `catalog.published`, once built; null before (and for any catalog but the last one indexed). */
  indexFor(catalog: Catalog): SearchIndex | null;
  /** The index built last, of whichever catalog; null before the first is ready. */
  latest(): SearchIndex | null;
  /** Whether a post holds every term, from its words if a build has read them, else from its text (the plain scan). */
  matchesEveryTerm(post: Searchable, terms: readonly string[]): boolean;
  /** Indexes `catalog` in the background, after any build under way; a build for an older catalog stops early. */
  index(catalog: Catalog): void;
  /** Settles when no build is under way or queued. */
  idle(): Promise<void>;
  /** Stops building; settles when the build under way has paused for good. */
  close(): Promise<void>;
}

export interface SearchIndexerOptions {
  /** Waits for the next event-loop turn (setImmediate by default): requests get their turn between slices. */
  pause?: () => Promise<unknown>;
  onError(error: unknown): void;
}

export function createSearchIndexer(options: SearchIndexerOptions): SearchIndexer {
  const pause = options.pause ?? (() => nextTurn());
  // Word numbers and what was read of each post version, kept across catalogs: an edit reads one file again.
  const store = createWordStore();
  let ready: { catalog: Catalog; index: SearchIndex } | null = null;
  let wanted: Catalog | null = null;
  let closed = false;
  let running: Promise<void> = Promise.resolve();

  const build = async (catalog: Catalog): Promise<void> => {
    const current = () => !closed && wanted === catalog;
    if (!current()) return;
    // The previous index keeps serving its own catalog's snapshot meanwhile; only its word index is reused.
    const steps = indexSteps(
      catalog.published.map((entry) => entry.post),
      ready?.index,
      store,
    );
    for (;;) {
      const step = steps.next();
      if (step.done) {
        ready = { catalog, index: step.value };
        return;
      }
      await pause();
      if (!current()) return;
    }
  };

  return {
    indexFor: (catalog) => (ready !== null && ready.catalog === catalog ? ready.index : null),
    latest: () => ready?.index ?? null,
    matchesEveryTerm: (post, terms) => matchesEveryTerm(store, post, terms),
    index(catalog) {
      wanted = catalog;
      running = running.then(() => build(catalog)).catch(options.onError);
    },
    idle: () => running,
    async close() {
      closed = true;
      await running;
    },
  };
}
