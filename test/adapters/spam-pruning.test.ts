// Pruning the quarantine by spam_keep_days (src/adapters/spam-pruning.ts), on a test clock over the files store:
// the first use prunes every form by its own days, later uses within the hour do not, the first use after the hour
// does; a burst of first uses prunes once; a failed prune is logged, the call goes on, and it is tried a minute later.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSpamFiles, spamDirOf } from '../../src/adapters/files/spam-files.js';
import { PRUNE_INTERVAL_MS, PRUNE_RETRY_MS, withSpamPruning } from '../../src/adapters/spam-pruning.js';
import type { SpamStore } from '../../src/forms/spam/quarantine.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs } from '../support/log-capture.js';
import { spamEntry, T0 } from '../support/spam-store-contract.js';
import { withTempDir } from '../support/temp-dir.js';

const DAY_MS = 86_400_000;
const FORMS = [
  { path: '/contact', spam_keep_days: 30 },
  { path: '/short', spam_keep_days: 2 },
];

/** `store` with its prune calls recorded, failing while `failing` is set. */
function recording(store: SpamStore) {
  const calls: Array<[string, number]> = [];
  const state = { failing: false };
  const recorded: SpamStore = {
    ...store,
    async prune(form, before) {
      calls.push([form, before]);
      if (state.failing) throw new Error('disk gone');
      return store.prune(form, before);
    },
  };
  return { recorded, calls, state };
}

describe('pruning the quarantine by spam_keep_days', () => {
  it('prunes each form by its own days at the first use, then at most once an hour', async () => {
    await withTempDir('spam-pruning', async (dir) => {
      const raw = createSpamFiles(spamDirOf(dir));
      // Arrived 3 and 40 days before the clock's start.
      const now = T0 + 40 * DAY_MS;
      await raw.quarantine(spamEntry('/contact', 1, { at: now - 40 * DAY_MS }));
      await raw.quarantine(spamEntry('/contact', 2, { at: now - 3 * DAY_MS }));
      await raw.quarantine(spamEntry('/short', 3, { at: now - 3 * DAY_MS }));
      await raw.quarantine(spamEntry('/short', 4, { at: now - DAY_MS }));
      const { recorded, calls } = recording(raw);
      const clock = createTestClock(now);
      const logs = captureLogs();
      const store = withSpamPruning(recorded, { forms: FORMS, logger: logs.logger, clock });

      assert.equal(await store.count('/contact'), 1, 'the 40-day-old entry of a 30-day form went before the count');
      assert.equal(await store.count('/short'), 1, 'the 3-day-old entry of a 2-day form went');
      assert.deepEqual(calls, [
        ['/contact', now - 30 * DAY_MS],
        ['/short', now - 2 * DAY_MS],
      ]);
      assert.deepEqual(
        logs.lines().filter((line) => line.event === 'spam_pruned').map(({ form, count }) => ({ form, count })),
        [
          { form: '/contact', count: 1 },
          { form: '/short', count: 1 },
        ],
      );

      clock.advance(PRUNE_INTERVAL_MS - 1);
      await store.quarantine(spamEntry('/contact', 5, { at: clock() }));
      await store.list('/short', { limit: 10 });
      await store.countByDay(0);
      assert.equal(calls.length, 2, 'not again within the hour');
      clock.advance(1);
      await store.list('/contact', { limit: 10 });
      assert.equal(calls.length, 4, 'the first use after the hour prunes again');
      assert.equal(await store.count('/short'), 1, 'the 1-day-old entry is not past its 2 days yet');
      clock.advance(DAY_MS);
      assert.equal(await store.count('/short'), 0, 'a day later it is');
      assert.equal(calls.length, 6);
    });
  });

  it('prunes once for a burst of first uses, each waiting for it', async () => {
    await withTempDir('spam-pruning', async (dir) => {
      const { recorded, calls } = recording(createSpamFiles(spamDirOf(dir)));
      const store = withSpamPruning(recorded, { forms: FORMS, logger: captureLogs().logger, clock: createTestClock(T0) });
      await Promise.all(Array.from({ length: 10 }, (_, index) => store.quarantine(spamEntry('/contact', index, { at: T0 }))));
      assert.equal(calls.length, 2, 'one prune of each form');
      assert.equal(await store.count('/contact'), 10, 'nothing new was pruned');
    });
  });

  it('logs a failed prune, goes on with the call, and tries again a minute later', async () => {
    await withTempDir('spam-pruning', async (dir) => {
      const { recorded, calls, state } = recording(createSpamFiles(spamDirOf(dir)));
      const clock = createTestClock(T0);
      const logs = captureLogs();
      const store = withSpamPruning(recorded, { forms: FORMS, logger: logs.logger, clock });
      state.failing = true;
      const id = await store.quarantine(spamEntry('/contact', 1, { at: T0 }));
      assert.equal(typeof id, 'string', 'the quarantine went on');
      const failed = logs.lines().filter((line) => line.event === 'spam_prune_failed');
      assert.deepEqual(failed.map((line) => line.form), ['/contact'], 'logged once, and the other forms wait for the retry');
      assert.equal(typeof failed[0]?.reason, 'string');
      state.failing = false;
      clock.advance(PRUNE_RETRY_MS - 1);
      await store.count('/contact');
      assert.equal(calls.length, 1, 'not before the minute');
      clock.advance(1);
      await store.count('/contact');
      assert.equal(calls.length, 3, 'both forms a minute later');
    });
  });
});
