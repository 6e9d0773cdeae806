// The analytics page: the period's views and visitors as charts with their numbers in tables (a year by week), the
// top pages and referrers, and conversions per form and page.
import { PERIODS, type AnalyticsReport, type Period } from '../../analytics/report.js';
import { DayChart } from '../dashboard-pages/day-chart.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';

export interface AnalyticsPageProps {
  session: AdminSession;
  report: AnalyticsReport;
  period: Period;
  /** False when `[analytics]` is off: nothing new is counted. */
  enabled: boolean;
}

/** A year shown a week a bar: 365 bars would be too thin to read. */
function chartDays(report: AnalyticsReport, key: 'views' | 'visitors'): Array<{ day: string; value: number }> {
  const points = report.days.map((day) => ({ day: day.day, value: day[key] }));
  if (points.length <= 31) return points;
  const weeks: Array<{ day: string; value: number }> = [];
  for (let start = 0; start < points.length; start += 7) {
    const week = points.slice(start, start + 7);
    weeks.push({ day: week[0]!.day, value: week.reduce((total, point) => total + point.value, 0) });
  }
  return weeks;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`;
}

export function AnalyticsPage({ session, report, period, enabled }: AnalyticsPageProps) {
  const byWeek = report.days.length > 31;
  const unit = byWeek ? 'Week from' : 'Day';
  return (
    <Layout title="Analytics" session={session} section="analytics">
      <h1>Analytics</h1>
      {!enabled && (
        <p class="admin-notice">
          Page views are not being counted: set <code>[analytics] enabled = true</code> in the configuration and add the script to the site's pages.
        </p>
      )}
      <nav aria-label="Period" class="admin-pager">
        {PERIODS.map((days) => (
          <>
            {days === period ? <strong aria-current="page">Last {days} days</strong> : <a href={`/admin/analytics?days=${days}`}>Last {days} days</a>}{' '}
          </>
        ))}
        <a href={`/admin/analytics.csv?days=${period}`}>Export CSV</a>
      </nav>
      <p>Page views sent by the site's script, without cookies; visitors are counted per day ({byWeek ? 'a week adds up its days' : 'one person on two days counts twice'}).</p>
      <DayChart id="analytics-views" title={`Page views${byWeek ? ' per week' : ''}`} days={chartDays(report, 'views')} kind="bars" noun={{ one: 'view', many: 'views' }} valueLabel={`Views (${unit.toLowerCase()})`} />
      <DayChart id="analytics-visitors" title={`Visitors${byWeek ? ' per week' : ''}`} days={chartDays(report, 'visitors')} kind="bars" noun={{ one: 'visitor', many: 'visitors' }} valueLabel="Visitors" />
      <h2>Top pages</h2>
      {report.pages.length === 0 ? (
        <p>No page views in this period.</p>
      ) : (
        <AdminTable caption={`The most viewed pages, last ${period} days`} headings={['Page', 'Views']}>
          {report.pages.map((row) => (
            <tr>
              <td>{row.path}</td>
              <td>{row.views}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <h2>Referrers</h2>
      {report.referrers.length === 0 ? (
        <p>No views came from other sites in this period.</p>
      ) : (
        <AdminTable caption={`Other sites visitors came from, last ${period} days`} headings={['Site', 'Views']}>
          {report.referrers.map((row) => (
            <tr>
              <td>{row.host}</td>
              <td>{row.views}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <h2>Conversions</h2>
      {report.conversions.length === 0 ? (
        <p>No form was sent from a counted page in this period.</p>
      ) : (
        <AdminTable caption={`Accepted submissions per form and page, last ${period} days`} headings={['Form', 'Page', 'Submissions', 'Views', 'Rate']}>
          {report.conversions.map((row) => (
            <tr>
              <td>{row.form}</td>
              <td>{row.page}</td>
              <td>{row.submissions}</td>
              <td>{row.views}</td>
              <td>{percent(row.submissions, row.views)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}
