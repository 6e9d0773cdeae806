// The subscribers pages (docs/admin.md "Subscribers"). Addresses are shown here, to the signed-in owner only;
// preact escapes them like every other text.
import type { CampaignProgress, CampaignRequest } from '../../newsletter/campaigns/campaign.js';
import type { Subscriber } from '../../newsletter/index.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { RowButton } from '../views/row-button.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import type { DayValue } from './chart-scale.js';
import { DayChart } from './day-chart.js';
import { subscribersPathOf } from './subscriber-paths.js';

export function SubscribersOverviewPage({ session, lists }: { session: AdminSession; lists: Array<{ form: string; subscribers: number; pending: number }> }) {
  return (
    <Layout title="Subscribers" session={session} section="subscribers">
      <h1>Subscribers</h1>
      {lists.length === 0 ? (
        <p>No form of this configuration is a newsletter form (type = "newsletter"), so there are no subscribers.</p>
      ) : (
        <AdminTable caption="Newsletter forms" headings={['Form', 'Subscribers', 'Pending']}>
          {lists.map((list) => (
            <tr>
              <td>
                <a href={subscribersPathOf(list.form)}>{list.form}</a>
              </td>
              <td>{list.subscribers}</td>
              <td>{list.pending}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}

export interface SubscriberListProps {
  session: AdminSession;
  form: string;
  total: number;
  pending: number;
  /** This page's subscribers, newest subscription first. */
  subscribers: readonly Subscriber[];
  page: number;
  pages: number;
  unsubscribes: readonly DayValue[];
  campaigns: ReadonlyArray<{ request: CampaignRequest; progress: CampaignProgress }>;
  notice?: string;
}

export function SubscriberListPage(props: SubscriberListProps) {
  const { session, form, total, pending, subscribers, page, pages } = props;
  const base = subscribersPathOf(form);
  return (
    <Layout title={`Subscribers of ${form}`} session={session} section="subscribers">
      <h1>Subscribers of {form}</h1>
      {props.notice && (
        <p class="admin-notice" role="status">
          {props.notice}
        </p>
      )}
      <ul class="admin-tiles" aria-label="The list now">
        <li class="admin-tile">
          <span class="admin-tile-value">{total}</span> <span class="admin-tile-label">{total === 1 ? 'subscriber' : 'subscribers'}</span>
        </li>
        <li class="admin-tile">
          <span class="admin-tile-value">{pending}</span> <span class="admin-tile-label">pending (not confirmed yet)</span>
        </li>
      </ul>
      <p>
        <a class="admin-button-link" href={`${base}?export=csv`} download>
          Export CSV
        </a>
      </p>
      <DayChart id="unsubscribes" title={`Unsubscribes per day from ${form}`} days={props.unsubscribes} kind="bars" noun={{ one: 'unsubscribe', many: 'unsubscribes' }} valueLabel="Unsubscribes" />
      <h2>Current subscribers</h2>
      {total === 0 ? (
        <p>Nobody is on this list yet.</p>
      ) : (
        <AdminTable
          caption={pages > 1 ? `Page ${page} of ${pages}, newest first` : 'Newest first'}
          headings={['Address', 'Subscribed', <span class="admin-visually-hidden">Action</span>]}
        >
          {subscribers.map((subscriber) => (
            <tr>
              <td>{subscriber.email}</td>
              <td>
                <Time at={subscriber.subscribed_at} zone={session.timeZone} precision="day" />
              </td>
              <td>
                <RowButton session={session} action={base} name="email" value={subscriber.email} label="Remove" rowName={subscriber.email} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {pages > 1 && (
        <nav aria-label="Pages of subscribers" class="admin-pager">
          {page > 1 && <a href={`${base}?page=${page - 1}`}>Newer</a>}
          {page < pages && <a href={`${base}?page=${page + 1}`}>Older</a>}
        </nav>
      )}
      <h2>Campaigns sent to this list</h2>
      {props.campaigns.length === 0 ? (
        <p>No post was sent to this list yet.</p>
      ) : (
        <AdminTable
          caption="Newest first"
          headings={['Subject', 'Created', 'Recipients', 'Sent', 'Failed', 'Skipped']}
        >
          {props.campaigns.map(({ request, progress }) => (
            <tr>
              <td>
                <a href={`/admin/campaigns/${request.id}`}>{request.subject}</a>
              </td>
              <td>
                <Time at={request.created_at} zone={session.timeZone} precision="day" />
              </td>
              <td>{progress.total}</td>
              <td>{progress.sent}</td>
              <td>{progress.failed}</td>
              <td>{progress.skipped}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}
