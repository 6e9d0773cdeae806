// Builds the `q` index of each catalog off the start-up and request paths: after the catalog is served, a
// slice of posts per event-loop turn (search-index.ts indexSteps), so a request waits for one slice at most.
// A `q` over a catalog whose index is not ready waits for it (whenIndexed; docs/blog.md "Start-up and the load
// cache"): every answer is complete. An index answers once its lists are laid out, and only for the catalog it was
// built from. With a words file (search-words-file.ts), the first build takes
// the index in it as it is when its posts are the catalog's (a restart with nothing changed); with a few posts
// changed, that index answers meanwhile, as the index before an edit does, and the build takes the words of the
// unchanged posts from the file. A build that read many posts' texts (a first start) writes the file again, and so
// does the close when any was read since.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalog } from './catalog.js';
import { MOST_UNINDEXED } from './query.js';
import { adoptSavedWordsSteps, createTermMatcher, createWordStore, fitsSavedIndex, indexSteps, savedIndexSteps, savedPostsFor, takeTermsOf, type SavedWords, type Searchable, type SearchIndex } from './search-index.js';
import type { SearchWordsStore } from './search-words-file.js';
import { stepClock, type StepDue } from './step-clock.js';

export interface SearchIndexer {
  /** The index of `catalog.published`, once built; null before (and for any catalog but the last one indexed). */
  indexFor(catalog: Catalog): SearchIndex | null;
  /** The index built last, of whichever catalog; null before the first is ready. */
  latest(): SearchIndex | null;
  /**
   * For one query, whether a post the index answering it does not hold (one changed since) holds every term: by
   * its words, reading and keeping them (so the build does not read them again).
   */
  matcherFor(terms: readonly string[]): (post: Searchable) => boolean;
  /**
   * Settles once `catalog` has its index (indexFor), or once no build is under way or queued (the index of a newer
   * catalog may answer for it: latest()), or at close.
   */
  whenIndexed(catalog: Catalog): Promise<void>;
  /** Indexes `catalog` in the background, after any build under way; a build for an older catalog stops early. */
  index(catalog: Catalog): void;
  /** Settles when no build is under way or queued. */
  idle(): Promise<void>;
  /**
   * Takes in the words file (at once without one), before any post is read, so that the posts the load reads can
   * give their words (takeText) under the file's numbers; the first build calls it when nobody did.
   */
  takeWordsFile(): Promise<void>;
  /**
   * Keeps the words of a post's folded text, read as the post is loaded (content/library.ts), so that no build
   * reads its file again; ignored before the words file is taken in.
   */
  takeText(post: Searchable, folded: string): void;
  /**
   * Settles once the first build took in the words file (at once without one): with the index ready when the file
   * held the index of the catalog's very posts (a restart with nothing changed), else with the build under way.
   */
  restored(): Promise<void>;
  /** Post texts read for the last completed build (as they were loaded, by it, or by builds cut short before it): the others' words were in the words file. */
  textsRead(): number;
  /** Stops building; settles when the build under way has paused for good and the words file holds the last index's words. */
  close(): Promise<void>;
}

export interface SearchIndexerOptions {
  /** Waits for the next event-loop turn (setImmediate by default): requests get their turn between slices. */
  pause?: () => Promise<unknown>;
  /** Milliseconds of work between two pauses (step-clock.ts STEP_MS by default). */
  stepMs?: number;
  /** Milliseconds a build's index waits for its words' trigram index before it answers without (EARLY_ANSWER_MS). */
  earlyAnswerMs?: number;
  /**
   * Milliseconds of work between two pauses while the first build takes in the words file and the index in it,
   * which the start waits for before it answers anything (restored()): stepMs by default.
   */
  restoreStepMs?: number;
  /** Where the posts' words are kept from one start to the next; none by default. */
  words?: SearchWordsStore;
  onError(error: unknown): void;
  /** The words file could not be written (the next start reads every post again). */
  onSaveError?(error: unknown): void;
}

/**
 * How long the trigram index over a build's words may take before the index answers without it (words then
 * searched joined: some milliseconds a term at 10,000 posts, a hundred at 100,000): never. The trigram index takes
 * a fraction of the build (some 0.1 s at 10,000 posts), and every query after it answers from it; an index that
 * answered without it left every query of the first seconds after a start searching the joined words.
 */
const EARLY_ANSWER_MS = Infinity;

/**
 * Milliseconds of work between two pauses while the start waits for the words file (blog-content.ts passes it as
 * restoreStepMs): nothing else is answered yet, and a pause now and then lets signals and timers in.
 */
export const RESTORE_STEP_MS = 50;

/** Texts read since the words file was written that make a build write it again, at least (else a 16th of the posts). */
const MIN_UNSAVED = 64;

export function createSearchIndexer(options: SearchIndexerOptions): SearchIndexer {
  const pause = options.pause ?? (() => nextTurn());
  // Word numbers and what was read of each post version, kept across catalogs: an edit reads one file again.
  const store = createWordStore();
  let ready: { catalog: Catalog; index: SearchIndex } | null = null;
  // The index kept in data_dir after a restart with a few posts changed, until the first build is ready.
  let kept: SearchIndex | null = null;
  let wanted: Catalog | null = null;
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let writing: Promise<void> = Promise.resolve();
  // What the words file held, once taken in (takeWordsFile).
  let wordsFile: Promise<SavedWords | null> | null = null;
  // No text is read into the store before the words file is taken in (adoptSavedWords wants an empty table).
  let storeOpen = !options.words;
  // Builds under way or queued, and the queries waiting for an index (whenIndexed).
  let builds = 0;
  const waiting: Array<{ catalog: Catalog; settle(): void }> = [];
  const settleWaiting = () => {
    for (let at = waiting.length - 1; at >= 0; at -= 1) {
      const waiter = waiting[at]!;
      if (closed || builds === 0 || ready?.catalog === waiter.catalog) {
        waiting.splice(at, 1);
        waiter.settle();
      }
    }
  };
  // store.textsRead when the last build completed, and how many of those it read itself (or an aborted build for it).
  let textsAtReady = 0;
  let lastTextsRead = 0;
  // store.textsRead that the words file holds, and the file's lists no build took since (their posts gone or changed).
  let textsAtSave = 0;
  let dropped = 0;
  const unsaved = () => textsAtReady - textsAtSave + dropped;

  // Settled once the first build took in the words file, and the index in it if it was these posts' (restored()).
  let isRestored = false;
  let settleRestored: () => void = () => undefined;
  const restoredOnce = new Promise<void>((resolve) => (settleRestored = resolve));
  const restoredNow = () => {
    isRestored = true;
    settleRestored();
  };

  /** Runs `steps` with a pause between two; undefined when the indexer is closed meanwhile. */
  const inSteps = async <T>(steps: Generator<void, T>): Promise<T | undefined> => {
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await pause();
      if (closed) {
        steps.return(undefined as T);
        return undefined;
      }
    }
  };

  /**
   * The first build takes what the words file has, before any text is read into the store. What it returns is the
   * file's content when it holds the index too: the first build takes that whole when its posts are the catalog's.
   */
  const adoptWordsFile = async (due: StepDue): Promise<SavedWords | null> => {
    try {
      const saved = options.words ? await inSteps(options.words.read(due)) : null;
      // A restart: the first build takes (almost) every post's words from the file.
      if (saved && (await inSteps(adoptSavedWordsSteps(store, saved, due)))) return saved.index ? saved : null;
      return null;
    } finally {
      storeOpen = !closed;
    }
  };

  /**
   * Writes the words of the last index once the write before is done: after a build, unless a newer build is on its
   * way by then; at close, whatever the last index is.
   */
  const save = (still: () => boolean): void => {
    const { words } = options;
    if (!words || !ready) return;
    // By the time the write runs, `still()` holds only if no newer index is ready: this one is still the last.
    const { index } = ready;
    writing = writing.then(async () => {
      if (unsaved() === 0 || !still()) return;
      const before = { texts: textsAtSave, dropped };
      textsAtSave = textsAtReady;
      dropped = 0;
      try {
        await words.write(index, pause);
      } catch (error) {
        textsAtSave = before.texts;
        dropped += before.dropped;
        options.onSaveError?.(error);
      }
    });
  };

  const build = async (catalog: Catalog): Promise<void> => {
    const current = () => !closed && wanted === catalog;
    try {
      const due = stepClock(options.stepMs);
      const restoreDue = () => (isRestored ? due() : restoring());
      // The first build takes what the words file held; later ones take nothing from it.
      const first = firstBuild;
      firstBuild = false;
      const saved = first ? await takeWordsFile() : null;
      if (!current()) return;
      const posts = catalog.published.map((entry) => entry.post);
      if (saved && fitsSavedIndex(posts, saved)) {
        // The index of these very posts: it answers as soon as it is taken, its trigram index built after if need be.
        await runSteps(catalog, savedIndexSteps(posts, saved, store, restoreDue), current, 0);
        return;
      }
      const savedPosts = saved && savedPostsFor(posts, saved, MOST_UNINDEXED);
      if (savedPosts) {
        // A few posts changed since it was kept: it answers meanwhile, as the index before an edit does.
        const steps = savedIndexSteps(savedPosts, saved!, store, restoreDue);
        let step = steps.next();
        for (; !step.done && !step.value; step = steps.next()) {
          await pause();
          if (!current()) return;
        }
        kept = step.value!;
      }
      restoredNow();
      // The previous index keeps serving its own catalog's snapshot meanwhile; only its word index is reused.
      await runSteps(catalog, indexSteps(posts, ready?.index ?? kept ?? undefined, store, due), current, options.earlyAnswerMs ?? EARLY_ANSWER_MS);
    } finally {
      restoredNow();
    }
  };

  // Until the file is taken in, longer steps: nothing is answered before, the start waits for it.
  const restoring = stepClock(options.restoreStepMs ?? options.stepMs);
  let firstBuild = true;
  const takeWordsFile = (): Promise<SavedWords | null> => (wordsFile ??= adoptWordsFile(restoring));

  /** Runs a build's steps; the index yielded once its lists are laid out answers `earlyAnswerMs` later. */
  const runSteps = async (catalog: Catalog, steps: ReturnType<typeof indexSteps>, current: () => boolean, earlyAnswerMs: number): Promise<void> => {
    // The index once its lists are laid out, and when they were.
    let laidOut: { index: SearchIndex; at: number } | null = null;
    for (;;) {
      const step = steps.next();
      if (step.done) {
        ready = { catalog, index: step.value };
        kept = null;
        // Texts read by a build that a newer catalog cut short count for this one, which used them.
        lastTextsRead = store.textsRead - textsAtReady;
        textsAtReady = store.textsRead;
        // Lists the build did not take are of posts that are gone (or changed): the file is written without them.
        dropped += store.saved.size;
        store.saved.clear();
        // A first start writes the file at once; a few edits wait for more, or for the close (each write is the whole file).
        if (unsaved() > Math.max(MIN_UNSAVED, step.value.posts.length / 16)) save(() => !closed && wanted === catalog);
        restoredNow();
        settleWaiting();
        return;
      }
      await pause();
      if (!current()) return;
      if (step.value) laidOut = { index: step.value, at: performance.now() };
      if (laidOut && performance.now() - laidOut.at >= earlyAnswerMs) {
        // The index answers while its words' trigram index is built.
        ready = { catalog, index: laidOut.index };
        kept = null;
        laidOut = null;
        restoredNow();
        settleWaiting();
      }
    }
  };

  return {
    indexFor: (catalog) => (ready !== null && ready.catalog === catalog ? ready.index : null),
    latest: () => ready?.index ?? kept,
    matcherFor: (terms) => createTermMatcher(store, terms, () => storeOpen),
    takeWordsFile: async () => void (await takeWordsFile()),
    takeText(post, folded) {
      // A post the words file has (its file unchanged since) takes its list from there.
      if (storeOpen && !closed && !(post.searchKey !== undefined && store.saved.has(post.searchKey))) takeTermsOf(store, post, folded, false);
    },
    whenIndexed(catalog) {
      if (closed || builds === 0 || ready?.catalog === catalog) return Promise.resolve();
      return new Promise<void>((settle) => waiting.push({ catalog, settle }));
    },
    index(catalog) {
      wanted = catalog;
      builds += 1;
      running = running
        .then(() => build(catalog))
        .catch(options.onError)
        .finally(() => {
          builds -= 1;
          settleWaiting();
        });
    },
    idle: () => running,
    restored: () => restoredOnce,
    textsRead: () => lastTextsRead,
    async close() {
      closed = true;
      settleWaiting();
      await running;
      save(() => true);
      await writing;
    },
  };
}
