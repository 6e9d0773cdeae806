// What the analytics count through (docs/analytics.md): the store of the daily rollups (data_dir or PostgreSQL),
// the day's salt and the sets of the day's visitors (this process, or Redis shared by replicas).
import type { DayCounts } from './day-counts.js';

/** The daily rollups. */
export interface AnalyticsStore {
  /** Adds a batch of days (increases, and each day's visitor count so far); rejects when nothing was kept. */
  add(batch: readonly DayCounts[]): Promise<void>;
  /** The days from `from` to `to` (YYYY-MM-DD, both included) that have counts, oldest first. */
  read(from: string, to: string): Promise<DayCounts[]>;
}

/** The day's salt and visitors: never kept beside the counts. */
export interface VisitorSets {
  /** The random salt of `day`, the same for every replica, forgotten 48 hours after it was made. */
  saltOf(day: string): Promise<Buffer>;
  /** Adds visitor hashes to `day`'s set; resolves with the number of distinct visitors of the day so far. */
  add(day: string, hashes: readonly string[]): Promise<number>;
  close?(): Promise<void>;
}
