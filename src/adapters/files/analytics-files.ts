// The daily rollups of the analytics in data_dir (docs/analytics.md "Daily rollups"): one JSON file a day,
// `analytics/<YYYY-MM-DD>.json`, rewritten whole (atomically) when a batch adds to it. Batches take turns; the days
// written lately are kept in memory, so a batch reads no file.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnalyticsStore } from '../../analytics/analytics-store.js';
import { addDay, copyDay, dayFromJson, emptyDay, type DayCounts } from '../../analytics/day-counts.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

export const ANALYTICS_FOLDER = 'analytics';
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.json$/;
/** Days held in memory: today and yesterday are the ones batches add to. */
const DAYS_HELD = 3;

export function createAnalyticsFiles(dataDir: string): AnalyticsStore {
  const folder = path.join(dataDir, ANALYTICS_FOLDER);
  const held = new Map<string, DayCounts>();
  let turn: Promise<unknown> = Promise.resolve();

  const fileOf = (day: string) => path.join(folder, `${day}.json`);
  const readDay = async (day: string): Promise<DayCounts> => {
    try {
      return dayFromJson(JSON.parse(await readFile(fileOf(day), 'utf8')), day);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyDay(day);
      throw error;
    }
  };

  const add = async (batch: readonly DayCounts[]) => {
    await mkdir(folder, { recursive: true });
    for (const counts of batch) {
      // Added to a copy: when the write fails, the day held stays as the file has it.
      const known = held.get(counts.day) ?? (await readDay(counts.day));
      const next = addDay(copyDay(known), counts);
      await writeFileAtomically(fileOf(counts.day), `${JSON.stringify(next)}\n`);
      held.delete(counts.day);
      held.set(counts.day, next);
      for (const old of [...held.keys()].slice(0, -DAYS_HELD)) held.delete(old);
    }
  };

  return {
    add(batch) {
      const done = turn.then(() => add(batch));
      turn = done.catch(() => undefined);
      return done;
    },
    async read(from, to) {
      await turn;
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const days = names
        .map((name) => DAY_FILE.exec(name)?.[1])
        .filter((day): day is string => day !== undefined && day >= from && day <= to)
        .sort();
      return Promise.all(days.map(async (day) => held.get(day) ?? (await readDay(day))));
    },
  };
}
