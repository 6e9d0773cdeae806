// The campaigns list and one campaign's page (docs/admin.md "Sending a post"): the counts the journal gives, the
// same ones `postbox newsletter list` prints. A campaign page that is not finished loads campaign-progress.js,
// which follows /admin/campaigns/<id>/progress and updates the marked parts of the page in place; without script
// the page shows the counts as of loading and a "Refresh" link. A campaign that paused itself for its bounces
// (docs/bounces.md "Suppression") says why, with a "Resume" button.
import type { CampaignProgress, CampaignRequest } from '../../newsletter/campaigns/campaign.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';

/** The script that updates a campaign page in place while the campaign is not finished (browser/campaign-progress.ts). */
export const PROGRESS_SCRIPT = 'campaign-progress.js';

export interface CampaignListing {
  request: CampaignRequest;
  progress: CampaignProgress;
}

export type CampaignState = 'waiting' | 'sending' | 'paused' | 'finished';

/**
 * waiting: no `serve` has started it yet; sending: started, not finished; paused: it paused itself for its bounces
 * and waits for "Resume"; finished: every recipient done.
 */
export function stateOf(progress: CampaignProgress): CampaignState {
  return progress.finished ? 'finished' : progress.paused ? 'paused' : progress.started ? 'sending' : 'waiting';
}

const STATE_LABELS: Record<CampaignState, string> = { waiting: 'Waiting', sending: 'Sending', paused: 'Paused', finished: 'Finished' };
/** The state as the campaign page says it; campaign-progress.js says the same. */
const STATE_TEXTS: Record<CampaignState, string> = { waiting: 'Waiting for the service to start it', sending: 'Sending', paused: 'Paused', finished: 'Finished' };

/** The one-line notices the campaign page shows after "Resume" (`?notice=<key>`): fixed sentences chosen by key. */
const CAMPAIGN_NOTICES: Record<string, string> = {
  resumed: 'The campaign goes on: its bounce rates count afresh from now.',
  not_paused: 'The campaign was not paused (any more); nothing changed.',
};

/** The sentence for `key`, or undefined. */
export function campaignNoticeOf(key: string | null): string | undefined {
  return key !== null && Object.hasOwn(CAMPAIGN_NOTICES, key) ? CAMPAIGN_NOTICES[key] : undefined;
}

/** What /admin/campaigns/<id>/progress answers, and campaign-progress.js reads. */
export interface ProgressJson {
  state: CampaignState;
  sent: number;
  failed: number;
  skipped: number;
  total: number;
}

export function progressJsonOf(progress: CampaignProgress): ProgressJson {
  return { state: stateOf(progress), sent: progress.sent, failed: progress.failed, skipped: progress.skipped, total: progress.total };
}

/** The campaign page's live summary; campaign-progress.js writes the same sentence. */
export function summaryOf(progress: CampaignProgress): string {
  const done = progress.sent + progress.failed + progress.skipped;
  return `${STATE_TEXTS[stateOf(progress)]}: ${done} of ${progress.total} done (${progress.sent} sent, ${progress.failed} failed, ${progress.skipped} skipped).`;
}

/** The four counts as cells; `marked` names them for campaign-progress.js. */
function Counts({ progress, marked = false }: { progress: CampaignProgress; marked?: boolean }) {
  const mark = (name: string) => (marked ? name : undefined);
  return (
    <>
      <td data-progress={mark('sent')}>{progress.sent}</td>
      <td data-progress={mark('failed')}>{progress.failed}</td>
      <td data-progress={mark('skipped')}>{progress.skipped}</td>
      <td data-progress={mark('total')}>{progress.total}</td>
    </>
  );
}

/** /admin/campaigns: every campaign, newest first. */
export function CampaignListPage({ session, campaigns }: { session: AdminSession; campaigns: readonly CampaignListing[] }) {
  return (
    <Layout title="Campaigns" session={session} section="campaigns">
      <h1>Campaigns</h1>
      <p>A campaign sends a published post to the subscribers of a newsletter form: start one from a published post in the posts list.</p>
      <p>
        <a href="/admin/automations">Automations</a> start campaigns on their own: a post as it is published, or a digest.
      </p>
      {campaigns.length === 0 ? (
        <p>No campaigns yet.</p>
      ) : (
        <AdminTable
          caption="Every campaign, newest first"
          headings={['Post', 'Language', 'Form', 'Created', 'State', 'Sent', 'Failed', 'Skipped', 'Total']}
        >
          {campaigns.map(({ request, progress }) => (
            <tr key={request.id}>
              <td>
                <a href={`/admin/campaigns/${request.id}`}>{request.subject}</a>
              </td>
              <td>{request.lang}</td>
              <td>{request.form}</td>
              <td>
                <Time at={request.created_at} zone={session.timeZone} />
              </td>
              <td>{STATE_LABELS[stateOf(progress)]}</td>
              <Counts progress={progress} />
            </tr>
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}

export interface CampaignPageProps {
  session: AdminSession;
  request: CampaignRequest;
  progress: CampaignProgress;
  /** Whether "Resume" can be offered: the campaign runner runs in this process. */
  canResume?: boolean;
  notice?: string;
}

/**
 * /admin/campaigns/<id>: one campaign, its counts and a progress bar. The parts campaign-progress.js updates carry
 * data-progress="<name>" inside the element with data-progress-url; only the summary sentence is a live region.
 */
export function CampaignPage({ session, request, progress, canResume = false, notice }: CampaignPageProps) {
  const state = stateOf(progress);
  // A finished or paused campaign does not change by itself: no script follows it.
  const finished = state === 'finished' || state === 'paused';
  const done = progress.sent + progress.failed + progress.skipped;
  const path = `/admin/campaigns/${request.id}`;
  return (
    <Layout title={`Campaign ${request.id}`} session={session} section="campaigns" scripts={finished ? undefined : [PROGRESS_SCRIPT]}>
      <h1>Campaign: {request.subject}</h1>
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      {progress.paused && (
        <div class="admin-problem">
          <p>
            This campaign paused itself on <Time at={progress.paused.at} zone={session.timeZone} />: {progress.paused.reason}. No more of its mails are handed to the
            queue until it is resumed. The addresses that bounced or complained are on the <a href="/admin/bounces">suppression list</a>.
          </p>
          {canResume ? (
            <form method="post" action={`${path}/resume`} class="admin-actions">
              <CsrfField session={session} />
              <button type="submit">Resume</button>
            </form>
          ) : (
            <p>It can be resumed from /admin of a running service with the mail queue.</p>
          )}
        </div>
      )}
      <div data-progress-url={finished ? undefined : `${path}/progress`} data-progress-state={finished ? undefined : state}>
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
            <Time at={request.created_at} zone={session.timeZone} />
            {request.resend && ' (sent again on purpose)'}
          </dd>
          <dt>State</dt>
          <dd data-progress="state">{STATE_TEXTS[state]}</dd>
        </dl>
        <p role="status" aria-live="polite" aria-atomic="true" data-progress="summary">
          {summaryOf(progress)}
        </p>
        <p>
          <label for="campaign-progress">Progress</label>{' '}
          <progress id="campaign-progress" max={Math.max(progress.total, 1)} value={done} data-progress="bar">
            {done} of {progress.total}
          </progress>{' '}
          <span data-progress="done">
            {done} of {progress.total}
          </span>
        </p>
        <AdminTable caption="What became of the recipients" headings={['Sent', 'Failed', 'Skipped', 'Total']}>
          <tr>
            <Counts progress={progress} marked={!finished} />
          </tr>
        </AdminTable>
        {!finished && (
          <p data-progress="note">
            <span data-progress="note-text">These are the counts as of loading this page.</span> <a href={path}>Refresh</a>
          </p>
        )}
        {(progress.failed > 0 || !finished) && (
          <p data-progress="failed-note" hidden={progress.failed === 0}>
            Failed mails stay in the mail queue's failed list: <code>postbox queue retry</code> sends them again, and the counts follow.
          </p>
        )}
      </div>
      <p>
        <a href="/admin/campaigns">Every campaign</a>
      </p>
    </Layout>
  );
}
