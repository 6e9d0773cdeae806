// The campaigns list and one campaign's page (docs/admin.md "Sending a post"): the counts the journal gives, the
// same ones `postbox newsletter list` prints. A campaign that is not finished reloads itself every few seconds.
import type { CampaignProgress, CampaignRequest } from '../../campaigns/campaign.js';
import type { AdminSession } from '../sessions.js';
import { Layout } from '../views/layout.js';

/** How often a campaign page that is still sending reloads itself. */
export const REFRESH_SECONDS = 3;

export interface CampaignListing {
  request: CampaignRequest;
  progress: CampaignProgress;
}

export type CampaignState = 'waiting' | 'sending' | 'finished';

/** waiting: no `serve` has started it yet; sending: started, not finished; finished: every recipient done. */
export function stateOf(progress: CampaignProgress): CampaignState {
  return progress.finished ? 'finished' : progress.started ? 'sending' : 'waiting';
}

const STATE_LABELS: Record<CampaignState, string> = { waiting: 'Waiting', sending: 'Sending', finished: 'Finished' };

function Counts({ progress }: { progress: CampaignProgress }) {
  return (
    <>
      <td>{progress.sent}</td>
      <td>{progress.failed}</td>
      <td>{progress.skipped}</td>
      <td>{progress.total}</td>
    </>
  );
}

/** /admin/campaigns: every campaign, newest first. */
export function CampaignListPage({ session, campaigns }: { session: AdminSession; campaigns: readonly CampaignListing[] }) {
  return (
    <Layout title="Campaigns" session={session} section="campaigns">
      <h1>Campaigns</h1>
      <p>A campaign sends a published post to the subscribers of a newsletter form: start one from a published post in the posts list.</p>
      {campaigns.length === 0 ? (
        <p>No campaigns yet.</p>
      ) : (
        <table class="admin-table">
          <caption>Every campaign, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Language</th>
              <th scope="col">Form</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">Sent</th>
              <th scope="col">Failed</th>
              <th scope="col">Skipped</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {campaigns.map(({ request, progress }) => (
              <tr key={request.id}>
                <td>
                  <a href={`/admin/campaigns/${request.id}`}>{request.subject}</a>
                </td>
                <td>{request.lang}</td>
                <td>{request.form}</td>
                <td>
                  <time dateTime={request.created_at}>{request.created_at}</time>
                </td>
                <td>{STATE_LABELS[stateOf(progress)]}</td>
                <Counts progress={progress} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

export interface CampaignPageProps {
  session: AdminSession;
  request: CampaignRequest;
  progress: CampaignProgress;
  /** Whether the page reloads itself while the campaign is not finished ("Stop refreshing" turns it off). */
  refresh: boolean;
}

/** /admin/campaigns/<id>: one campaign, its counts and a progress bar. */
export function CampaignPage({ session, request, progress, refresh }: CampaignPageProps) {
  const state = stateOf(progress);
  const done = progress.sent + progress.failed + progress.skipped;
  const reloading = refresh && state !== 'finished';
  const path = `/admin/campaigns/${request.id}`;
  return (
    <Layout title={`Campaign ${request.id}`} session={session} section="campaigns" refreshSeconds={reloading ? REFRESH_SECONDS : undefined}>
      <h1>Campaign: {request.subject}</h1>
      <dl class="admin-facts">
        <dt>Post</dt>
        <dd>
          <a href={request.post_url}>{request.subject}</a> ({request.slug})
        </dd>
        <dt>Language</dt>
        <dd>{request.lang}</dd>
        <dt>Newsletter form</dt>
        <dd>{request.form}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={request.created_at}>{request.created_at}</time>
          {request.resend && ' (sent again on purpose)'}
        </dd>
        <dt>State</dt>
        <dd>
          {state === 'waiting' ? 'Waiting for the service to start it' : STATE_LABELS[state]}
        </dd>
      </dl>
      <p>
        <label for="campaign-progress">Progress</label>{' '}
        <progress id="campaign-progress" max={Math.max(progress.total, 1)} value={done}>
          {done} of {progress.total}
        </progress>{' '}
        {done} of {progress.total}
      </p>
      <table class="admin-table">
        <caption>What became of the recipients</caption>
        <thead>
          <tr>
            <th scope="col">Sent</th>
            <th scope="col">Failed</th>
            <th scope="col">Skipped</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <Counts progress={progress} />
          </tr>
        </tbody>
      </table>
      {state !== 'finished' && (
        <p>
          {reloading ? (
            <>
              This page reloads every {REFRESH_SECONDS} seconds until the campaign is finished. <a href={`${path}?refresh=off`}>Stop refreshing</a>
            </>
          ) : (
            <>
              This page does not reload by itself. <a href={path}>Reload and follow the progress</a>
            </>
          )}
        </p>
      )}
      {progress.failed > 0 && <p>Failed mails stay in the mail queue's failed list: <code>postbox queue retry</code> sends them again, and the counts follow.</p>}
      <p>
        <a href="/admin/campaigns">Every campaign</a>
      </p>
    </Layout>
  );
}
