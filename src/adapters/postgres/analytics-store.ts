// The analytics' daily rollups in PostgreSQL (docs/analytics.md "Daily rollups"), shared by every replica: a batch
// is one transaction of upserts that add to the counts, and keeps the larger visitor count of a day.
import type { AnalyticsStore } from '../../analytics/analytics-store.js';
import { emptyDay, emptyTally, type DayCounts } from '../../analytics/day-counts.js';
import type { PostgresState } from './state.js';

type Kind = 'view' | 'referrer' | 'width' | 'conversion';

export function createPostgresAnalyticsStore(state: Pick<PostgresState, 'query' | 'transaction'>): AnalyticsStore {
  return {
    async add(batch) {
      const days: string[] = [];
      const kinds: Kind[] = [];
      const names: string[] = [];
      const pages: string[] = [];
      const counts: number[] = [];
      const push = (day: string, kind: Kind, name: string, page: string, count: number) => {
        days.push(day);
        kinds.push(kind);
        names.push(name);
        pages.push(page);
        counts.push(count);
      };
      for (const day of batch) {
        for (const [name, count] of Object.entries(day.views)) push(day.day, 'view', name, '', count);
        for (const [name, count] of Object.entries(day.referrers)) push(day.day, 'referrer', name, '', count);
        for (const [name, count] of Object.entries(day.widths)) push(day.day, 'width', name, '', count);
        for (const [form, byPage] of Object.entries(day.conversions)) for (const [page, count] of Object.entries(byPage)) push(day.day, 'conversion', form, page, count);
      }
      const visited = batch.filter((day) => day.visitors > 0);
      await state.transaction(async (query) => {
        if (days.length > 0) {
          await query(
            `INSERT INTO analytics_counts (day, kind, name, page, count)
             SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::bigint[])
             ON CONFLICT (day, kind, name, page) DO UPDATE SET count = analytics_counts.count + EXCLUDED.count`,
            [days, kinds, names, pages, counts],
          );
        }
        if (visited.length > 0) {
          await query(
            `INSERT INTO analytics_visitors (day, visitors) SELECT * FROM unnest($1::date[], $2::bigint[])
             ON CONFLICT (day) DO UPDATE SET visitors = GREATEST(analytics_visitors.visitors, EXCLUDED.visitors)`,
            [visited.map((day) => day.day), visited.map((day) => day.visitors)],
          );
        }
      });
    },
    async read(from, to) {
      const byDay = new Map<string, DayCounts>();
      const dayOf = (day: string) => {
        let counts = byDay.get(day);
        if (counts === undefined) byDay.set(day, (counts = emptyDay(day)));
        return counts;
      };
      const [rows, visitors] = await Promise.all([
        state.query<{ day: string; kind: Kind; name: string; page: string; count: string }>(
          "SELECT to_char(day, 'YYYY-MM-DD') AS day, kind, name, page, count FROM analytics_counts WHERE day BETWEEN $1 AND $2",
          [from, to],
        ),
        state.query<{ day: string; visitors: string }>("SELECT to_char(day, 'YYYY-MM-DD') AS day, visitors FROM analytics_visitors WHERE day BETWEEN $1 AND $2", [from, to]),
      ]);
      for (const row of rows.rows) {
        const counts = dayOf(row.day);
        const count = Number(row.count);
        if (row.kind === 'view') counts.views[row.name] = count;
        else if (row.kind === 'referrer') counts.referrers[row.name] = count;
        else if (row.kind === 'width') counts.widths[row.name] = count;
        else (counts.conversions[row.name] ??= emptyTally())[row.page] = count;
      }
      for (const row of visitors.rows) dayOf(row.day).visitors = Number(row.visitors);
      return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
    },
  };
}
