// /admin/automations (docs/admin.md "Automations"): each on_publish and digest automation of the configuration,
// its last and next run, what it mailed, and a "Pause" or "Resume" button (POST /admin/automations/<id>/pause or
// /resume). The pause is kept in the state store, so it holds on every replica at once.
import type { AutomationOverview } from '../../newsletter/automations/post-automations.js';
import { progressOf, type CampaignRequest } from '../../newsletter/campaigns/campaign.js';
import type { CampaignStore } from '../../newsletter/campaigns/campaign-store.js';
import type { Logger } from '../../kit/log.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { MessagePage } from '../views/message-page.js';
import { Time } from '../views/time.js';

const PREFIX = '/admin/automations/';

export interface AutomationPagesDeps {
  /** The automations running in this process; absent where none run (no blog, no queue, or none configured). */
  automations?: {
    overview(readProgress: (request: CampaignRequest) => Promise<{ sent: number; failed: number; skipped: number }>): Promise<AutomationOverview[]>;
    setPaused(id: string, paused: boolean, by: string): Promise<'done' | 'unknown'>;
  };
  campaigns: CampaignStore;
  logger?: Logger;
}

const NOTICES: Record<string, string> = {
  paused: 'The automation is paused on every replica: it mails nothing, and its campaigns wait, until it is resumed.',
  resumed: 'The automation is running again: what came due meanwhile is mailed within a minute.',
};

export function createAutomationPages(deps: AutomationPagesDeps): AdminRoute[] {
  const list: AdminPage = async (request, session) => {
    const overviews = deps.automations ? await deps.automations.overview(async (campaign) => progressOf(await deps.campaigns.readJournal(campaign.id), campaign.recipients)) : [];
    const key = new URLSearchParams(request.query).get('notice');
    const notice = key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined;
    return htmlAnswer(200, <AutomationListPage session={session} overviews={overviews} running={deps.automations !== undefined} notice={notice} />);
  };

  const change: AdminPage = async (request, session) => {
    const rest = request.path.slice(PREFIX.length);
    const [id = '', action = ''] = rest.split('/');
    const paused = action === 'pause' ? true : action === 'resume' ? false : undefined;
    const outcome = paused !== undefined && deps.automations ? await deps.automations.setPaused(id, paused, session.user) : 'unknown';
    if (outcome === 'unknown') {
      return htmlAnswer(404, <MessagePage title="No such automation" message="There is no automation to change at this address." session={session} link={{ href: '/admin/automations', label: 'Every automation' }} />);
    }
    deps.logger?.info({ event: paused ? 'admin_automation_paused' : 'admin_automation_resumed', user: session.user, automation: id }, 'admin: automation changed');
    return redirectAnswer(`/admin/automations?notice=${paused ? 'paused' : 'resumed'}`);
  };

  return [
    { path: '/admin/automations', methods: { GET: list } },
    { path: PREFIX, prefix: true, methods: { POST: change } },
  ];
}

interface ListProps {
  session: AdminSession;
  overviews: readonly AutomationOverview[];
  running: boolean;
  notice?: string;
}

/** Every automation: what it mails to whom, its runs and counts, and its button. */
export function AutomationListPage({ session, overviews, running, notice }: ListProps) {
  return (
    <Layout title="Automations" session={session} section="campaigns">
      <h1>Automations</h1>
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>
        Posts mailed as they are published, and digests of the posts of a week or a month, from <code>[[newsletter.automations]]</code>. Each mail goes out as a{' '}
        <a href="/admin/campaigns">campaign</a>.
      </p>
      {!running ? (
        <p>No on_publish or digest automation runs in this service: they need a blog, a newsletter form and the mail queue.</p>
      ) : (
        <AdminTable caption="Every automation" headings={['Automation', 'Mails to', 'State', 'Last run', 'Next run', 'Mailed', 'Passed over', 'Sent', 'Failed', 'Skipped', '']}>
          {overviews.map((overview) => (
            <AutomationRow session={session} overview={overview} />
          ))}
        </AdminTable>
      )}
    </Layout>
  );
}

function AutomationRow({ session, overview }: { session: AdminSession; overview: AutomationOverview }) {
  const { automation, state } = overview;
  const paused = state?.paused;
  const kind = automation.type === 'on_publish' ? 'each post as it is published' : `a digest every ${automation.every}`;
  return (
    <tr>
      <td>
        {automation.id} ({kind})
      </td>
      <td>{overview.audience}</td>
      <td>
        {paused ? (
          <>
            Paused by {paused.by} on <Time at={paused.at} zone={session.timeZone} />
          </>
        ) : state ? (
          'Running'
        ) : (
          'Starting'
        )}
      </td>
      <td>{overview.lastRun ? <Time at={overview.lastRun} zone={session.timeZone} /> : 'Not yet'}</td>
      <td>{paused ? 'Paused' : overview.nextRun !== undefined ? <Time at={overview.nextRun} zone={session.timeZone} /> : 'When a post is published'}</td>
      <td>{overview.mailed}</td>
      <td>{overview.passed}</td>
      <td>{overview.sent}</td>
      <td>{overview.failed}</td>
      <td>{overview.skipped}</td>
      <td>
        <form method="post" action={`${PREFIX}${automation.id}/${paused ? 'resume' : 'pause'}`} class="admin-actions">
          <CsrfField session={session} />
          <button type="submit" aria-label={`${paused ? 'Resume' : 'Pause'} ${automation.id}`}>
            {paused ? 'Resume' : 'Pause'}
          </button>
        </form>
      </td>
    </tr>
  );
}
