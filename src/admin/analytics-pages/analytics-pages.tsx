// /admin/analytics and /admin/analytics.csv (docs/analytics.md "In /admin"): the daily rollups of the last 7, 30 or
// 365 days (`?days=`), and every count of the period as CSV (src/kit/csv.ts). Owners and editors.
import type { AnalyticsStore } from '../../analytics/analytics-store.js';
import { countRowsOf, daysEnding, periodOf, reportOf } from '../../analytics/report.js';
import { dayOf } from '../../analytics/visitor.js';
import { csvRow } from '../../kit/csv.js';
import type { Clock } from '../../ports.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer } from '../render.js';
import { AnalyticsPage } from './analytics-views.js';

export const ANALYTICS_PATH = '/admin/analytics';
export const ANALYTICS_CSV_PATH = '/admin/analytics.csv';

const BYTE_ORDER_MARK = '\uFEFF';

/** The pages over `store`; `enabled` false (no [analytics]) says that nothing is being counted. */
export function createAnalyticsPages(deps: { store: Pick<AnalyticsStore, 'read'>; clock: Clock; enabled?: boolean }): AdminRoute[] {
  const { store, clock } = deps;
  const enabled = deps.enabled ?? true;
  const periodDays = (query: string) => daysEnding(dayOf(clock()), periodOf(query));

  const show: AdminPage = async (request, session) => {
    const days = periodDays(request.query);
    const report = reportOf(await store.read(days[0]!, days.at(-1)!), days);
    return htmlAnswer(200, <AnalyticsPage session={session} report={report} period={periodOf(request.query)} enabled={enabled} />);
  };

  const exportCsv: AdminPage = async (request) => {
    const days = periodDays(request.query);
    const rows = countRowsOf(await store.read(days[0]!, days.at(-1)!));
    const body = BYTE_ORDER_MARK + csvRow(['day', 'kind', 'name', 'page', 'count']) + rows.map(csvRow).join('');
    return {
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8; header=present', 'content-disposition': `attachment; filename="postbox-analytics-${days[0]}-${days.at(-1)}.csv"` },
      body,
    };
  };

  return [
    { path: ANALYTICS_PATH, methods: { GET: show } },
    { path: ANALYTICS_CSV_PATH, methods: { GET: exportCsv } },
  ];
}
