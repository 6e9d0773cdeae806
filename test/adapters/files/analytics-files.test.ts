// The analytics' rollups in data_dir (docs/analytics.md "Daily rollups"): batches add to a day's file, a visitor
// count keeps the larger, a range reads the days in it, oldest first, from a new store as well, and a day keeps at
// most MAX_NAMES_PER_DAY paths apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAnalyticsFiles } from '../../../src/adapters/files/analytics-files.js';
import { emptyDay, MAX_NAMES_PER_DAY, OTHER, type DayCounts } from '../../../src/analytics/day-counts.js';
import { withTempDir } from '../../support/temp-dir.js';

function batch(day: string, visitors: number, views: Record<string, number>, conversions: Record<string, Record<string, number>> = {}): DayCounts {
  return { ...emptyDay(day), visitors, views: Object.assign(Object.create(null), views), conversions };
}

describe('analytics rollups in data_dir', () => {
  it('adds batches to their days and reads a range back', async () => {
    await withTempDir('analytics-files', async (dir) => {
      const store = createAnalyticsFiles(dir);
      await store.add([batch('2026-03-01', 3, { '/a': 2 }), batch('2026-03-02', 1, { '/b': 1 })]);
      await store.add([batch('2026-03-01', 2, { '/a': 1, '/c': 4 }, { '/contact': { '/a': 1 } })]);
      await store.add([batch('2026-02-20', 9, { '/old': 1 })]);
      for (const reader of [store, createAnalyticsFiles(dir)]) {
        const days = await reader.read('2026-03-01', '2026-03-31');
        assert.deepEqual(days.map((day) => day.day), ['2026-03-01', '2026-03-02']);
        assert.equal(days[0]!.visitors, 3);
        assert.deepEqual({ ...days[0]!.views }, { '/a': 3, '/c': 4 });
        assert.deepEqual({ ...days[0]!.conversions['/contact'] }, { '/a': 1 });
      }
      assert.deepEqual(await createAnalyticsFiles(`${dir}/none`).read('2026-01-01', '2026-12-31'), []);
    });
  });

  it('counts a referrer named like an Object property as any other', async () => {
    await withTempDir('analytics-files', async (dir) => {
      const store = createAnalyticsFiles(dir);
      const referrers = { ...emptyDay('x').referrers, constructor: 1, __proto__: 1 } as Record<string, number>;
      Object.defineProperty(referrers, '__proto__', { value: 1, enumerable: true });
      await store.add([{ ...batch('2026-03-01', 1, { '/a': 1 }), referrers }]);
      await store.add([{ ...batch('2026-03-01', 1, { '/a': 1 }), referrers }]);
      const [day] = await createAnalyticsFiles(dir).read('2026-03-01', '2026-03-01');
      assert.equal(day!.referrers.constructor, 2);
      assert.equal(Object.getOwnPropertyDescriptor(day!.referrers, '__proto__')?.value, 2);
    });
  });

  it('counts the paths past the limit of a day under (other)', async () => {
    await withTempDir('analytics-files', async (dir) => {
      const store = createAnalyticsFiles(dir);
      const views = Object.fromEntries(Array.from({ length: MAX_NAMES_PER_DAY + 10 }, (_, index) => [`/p${index}`, 1]));
      await store.add([batch('2026-03-01', 1, views)]);
      const [day] = await store.read('2026-03-01', '2026-03-01');
      assert.equal(Object.keys(day!.views).length, MAX_NAMES_PER_DAY + 1);
      assert.equal(day!.views[OTHER], 10);
    });
  });
});
