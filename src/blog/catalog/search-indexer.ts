// Builds the `q` index of each catalog off the start-up and request paths: after the catalog is served, a
// slice of posts per event-loop turn (search-index.ts indexSteps), so a request waits for one slice at most.
// Until the index of a catalog is ready, `q` over that catalog is answered by the plain scan (plain-search.ts),
// which gives the same answers; an index is only ever used for the catalog it was built from. With a words file
// (search-words-file.ts), the first build takes the words of unchanged posts from it, and each build that read a
// post's text writes it again.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from './catalog.js';
import { adoptSavedWords, createWordStore, indexSteps, matchesEveryTerm, type Searchable, type SearchIndex } from './search-index.js';
import type { SearchWordsStore } from './search-words-file.js';

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
  /** Post texts the last completed build read: the others' words were known already, or in the words file. */
  textsRead(): number;
  /** Stops building; settles when the build under way has paused for good and the words file is written. */
  close(): Promise<void>;
}

export interface SearchIndexerOptions {
  /** Waits for the next event-loop turn (setImmediate by default): requests get their turn between slices. */
  pause?: () => Promise<unknown>;
  /** Where the posts' words are kept from one start to the next; none by default. */
  words?: SearchWordsStore;
  onError(error: unknown): void;
  /** The words file could not be written (the next start reads every post again). */
  onSaveError?(error: unknown): void;
}

export function createSearchIndexer(options: SearchIndexerOptions): SearchIndexer {
  const pause = options.pause ?? (() => nextTurn());
  // Word numbers and what was read of each post version, kept across catalogs: an edit reads one file again.
  const store = createWordStore();
  let ready: { catalog: Catalog; index: SearchIndex } | null = null;
  let wanted: Catalog | null = null;
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let writing: Promise<void> = Promise.resolve();
  let first = true;
  let lastTextsRead = 0;

  /** The first build takes what the words file has, before any text is read into the store. */
  const adoptWordsFile = async (): Promise<void> => {
    first = false;
    const saved = await options.words?.read();
    if (saved) adoptSavedWords(store, saved);
  };

  // Whether the store holds words the file does not: a build read texts, or posts the file lists are gone.
  let unsaved = false;

  /** Writes the words of `index` once the write before is done, unless a newer build is on its way by then. */
  const save = (catalog: Catalog, index: SearchIndex): void => {
    const { words } = options;
    if (!words) return;
    writing = writing.then(async () => {
      if (!unsaved || wanted !== catalog || closed) return;
      unsaved = false;
      try {
        await words.write(index, pause);
      } catch (error) {
        unsaved = true;
        options.onSaveError?.(error);
      }
    });
  };

  const build = async (catalog: Catalog): Promise<void> => {
    const current = () => !closed && wanted === catalog;
    if (first) await adoptWordsFile();
    if (!current()) return;
    const textsBefore = store.textsRead;
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
        lastTextsRead = store.textsRead - textsBefore;
        // Lists the build did not take are of posts that are gone (or changed): the file is written without them.
        if (store.textsRead > textsBefore || store.saved.size > 0) unsaved = true;
        store.saved.clear();
        if (unsaved) save(catalog, step.value);
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
    textsRead: () => lastTextsRead,
    async close() {
      closed = true;
      await running;
      await writing;
    },
  };
}
