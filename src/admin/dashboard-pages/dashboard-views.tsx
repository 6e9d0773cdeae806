// The dashboard page (docs/admin.md "Dashboard"): tiles with the numbers that want action (broken posts, failed
// mail), then a chart per form, then the counters of /metrics. Every number that has a page links to it.
import type { Counters, CounterName } from '../../forms/metrics.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';
import { spamPathOf } from '../spam-pages/spam-pages.js';
import { DayChart } from './day-chart.js';
import type { Dashboard } from './dashboard-data.js';
import { subscribersPathOf } from './subscriber-paths.js';

/** The counters of /metrics the table shows, under words a person reads (docs/admin.md lists the names). */
const COUNTER_COLUMNS: ReadonlyArray<{ label: string; counters: readonly CounterName[] }> = [
  { label: 'Received', counters: ['received'] },
  { label: 'Sent', counters: ['sent', 'confirmation_sent'] },
  { label: 'Confirmed', counters: ['confirmed'] },
  { label: 'Refused', counters: ['validation_failed', 'invalid_body', 'body_too_large'] },
  { label: 'Blocked', counters: ['honeypot_blocked', 'origin_blocked', 'rate_limited'] },
  { label: 'Failed', counters: ['send_failed', 'persist_failed', 'telegram_failed', 'auto_reply_failed', 'queue_failed'] },
];

function sumOf(counters: Counters, names: readonly CounterName[]): number {
  return names.reduce((sum, name) => sum + counters[name], 0);
}

/** A number with what it counts: `label` is [one, many] ("failed mail", "failed mails"). */
function Tile({ label, value, href, alarm }: { label: readonly [string, string]; value: number; href?: string; alarm?: boolean }) {
  const body = (
    <>
      <span class="admin-tile-value">{value}</span> <span class="admin-tile-label">{value === 1 ? label[0] : label[1]}</span>
    </>
  );
  return <li class={alarm && value > 0 ? 'admin-tile admin-tile-alarm' : 'admin-tile'}>{href ? <a href={href}>{body}</a> : body}</li>;
}

export function DashboardPage({ session, dashboard }: { session: AdminSession; dashboard: Dashboard }) {
  const { posts, queue, comments, counters } = dashboard;
  return (
    <Layout title="Dashboard" session={session} section="dashboard">
      <h1>Dashboard</h1>
      {(posts || queue || comments) && (
        <ul class="admin-tiles" aria-label="At a glance">
          {posts && <Tile label={['published post', 'published posts']} value={posts.published} href="/admin/posts" />}
          {posts && <Tile label={['draft', 'drafts']} value={posts.drafts} href="/admin/posts" />}
          {posts && <Tile label={['scheduled post', 'scheduled posts']} value={posts.scheduled} href="/admin/posts" />}
          {posts && <Tile label={['broken post', 'broken posts']} value={posts.broken} href="/admin/posts" alarm />}
          {comments && <Tile label={['comment waiting', 'comments waiting']} value={comments.waiting} href="/admin/comments" />}
          {queue && <Tile label={['mail waiting', 'mails waiting']} value={queue.pending} />}
          {queue && <Tile label={['failed mail', 'failed mails']} value={queue.failed} href="/admin/failed" alarm />}
        </ul>
      )}
      <h2>Submissions</h2>
      {dashboard.submissions.length === 0 && <p>No form keeps an archive, so there are no submissions to count.</p>}
      {dashboard.submissions.map((chart, index) => (
        <DayChart id={`submissions-${index}`} title={`Submissions per day to ${chart.form}`} days={chart.days} kind="bars" noun={{ one: 'submission', many: 'submissions' }} valueLabel="Submissions" />
      ))}
      {dashboard.unarchived.length > 0 && (
        <p class="admin-hint">
          Not counted here, as they keep no archive: {dashboard.unarchived.join(', ')}. Add <code>archive = "name.jsonl"</code> to a form's section of the configuration to count and keep its
          submissions.
        </p>
      )}
      {dashboard.spam && (
        <>
          <h2>Spam</h2>
          {dashboard.spam.length === 0 && <p>No submission was taken for spam in the last 30 days.</p>}
          {dashboard.spam.map((chart, index) => (
            <>
              <DayChart
                id={`spam-${index}`}
                title={`Spam per day to ${chart.form}`}
                days={chart.days}
                kind="bars"
                noun={{ one: 'submission taken for spam', many: 'submissions taken for spam' }}
                valueLabel="Taken for spam"
              />
              <p>
                <a href={spamPathOf(chart.form)}>The spam of {chart.form}</a>
              </p>
            </>
          ))}
        </>
      )}
      {dashboard.subscribers.length > 0 && <h2>Subscribers</h2>}
      {dashboard.subscribers.map((chart, index) => (
        <>
          <DayChart id={`subscribers-${index}`} title={`Subscribers of ${chart.form}`} days={chart.days} kind="steps" noun={{ one: 'subscriber', many: 'subscribers' }} valueLabel="Subscribers at the end of the day" />
          <p>
            <a href={subscribersPathOf(chart.form)}>The subscribers of {chart.form}</a>
          </p>
        </>
      ))}
      <h2>Counters</h2>
      {counters ? (
        <AdminTable
          caption="What the forms service counted since it started (as /metrics shows it)"
          headings={['Form', ...COUNTER_COLUMNS.map((column) => column.label)]}
          extraClass="admin-counters"
        >
          {Object.entries(counters.forms).map(([form, values]) => (
            <tr>
              <th scope="row">{form}</th>
              {COUNTER_COLUMNS.map((column) => (
                <td>{sumOf(values, column.counters)}</td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row">All forms</th>
            {COUNTER_COLUMNS.map((column) => (
              <td>{sumOf(counters.totals, column.counters)}</td>
            ))}
          </tr>
        </AdminTable>
      ) : (
        <p>The forms service does not run in this process, so there are no counters to show.</p>
      )}
    </Layout>
  );
}
