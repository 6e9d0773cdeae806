// /admin/campaigns, /admin/campaigns/<id> and /admin/campaigns/<id>/progress (docs/admin.md "Sending a post"):
// views of the campaigns in data_dir/campaigns and their journals, the last as JSON for the campaign page's script;
// and POST /admin/campaigns/<id>/resume, "Resume" of a campaign that paused itself for its bounces (docs/bounces.md
// "Suppression"). An id that is not one createCampaignId gives, or names no campaign, is 404 on all of them.
import { isCampaignId, progressOf } from '../../newsletter/campaigns/campaign.js';
import type { CampaignStore } from '../../newsletter/campaigns/campaign-store.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { Logger } from '../../kit/log.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { MessagePage } from '../views/message-page.js';
import { CampaignListPage, CampaignPage, campaignNoticeOf, progressJsonOf } from './campaign-views.js';

const PAGE_PREFIX = '/admin/campaigns/';
const PROGRESS_SUFFIX = '/progress';
const RESUME_SUFFIX = '/resume';

export interface CampaignPagesDeps {
  store: CampaignStore;
  /** Resumes a paused campaign through the campaign runner of this process; absent where none runs. */
  resume?(id: string, by: string): Promise<'resumed' | 'not_paused' | 'unknown'>;
  logger?: Logger;
}

export function createCampaignPages(deps: CampaignPagesDeps): AdminRoute[] {
  const { store } = deps;
  const progressOfRequest = async (request: { id: string; recipients: number }) => progressOf(await store.readJournal(request.id), request.recipients);

  const list: AdminPage = async (_request, session) => {
    const requests = (await store.list()).reverse();
    const campaigns = await Promise.all(requests.map(async (request) => ({ request, progress: await progressOfRequest(request) })));
    return htmlAnswer(200, <CampaignListPage session={session} campaigns={campaigns} />);
  };

  const show: AdminPage = async (request, session) => {
    const rest = request.path.slice(PAGE_PREFIX.length);
    const json = rest.endsWith(PROGRESS_SUFFIX);
    const id = json ? rest.slice(0, -PROGRESS_SUFFIX.length) : rest;
    const campaign = isCampaignId(id) ? await store.read(id) : undefined;
    if (!campaign) {
      return htmlAnswer(404, <MessagePage title="No such campaign" message="There is no campaign at this address." session={session} link={{ href: '/admin/campaigns', label: 'Every campaign' }} />);
    }
    const progress = await progressOfRequest(campaign);
    if (json) return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: JSON.stringify(progressJsonOf(progress)) };
    const notice = campaignNoticeOf(new URLSearchParams(request.query).get('notice'));
    return htmlAnswer(200, <CampaignPage session={session} request={campaign} progress={progress} canResume={deps.resume !== undefined} notice={notice} />);
  };

  const resume: AdminPage = async (request, session) => {
    const rest = request.path.slice(PAGE_PREFIX.length);
    const id = rest.endsWith(RESUME_SUFFIX) ? rest.slice(0, -RESUME_SUFFIX.length) : '';
    const outcome = isCampaignId(id) && deps.resume ? await deps.resume(id, session.user) : 'unknown';
    if (outcome === 'unknown') {
      return htmlAnswer(404, <MessagePage title="No such campaign" message="There is no campaign to resume at this address." session={session} link={{ href: '/admin/campaigns', label: 'Every campaign' }} />);
    }
    if (outcome === 'resumed') deps.logger?.info({ event: 'admin_campaign_resumed', user: session.user, campaign: id }, 'admin: campaign resumed');
    return redirectAnswer(`${PAGE_PREFIX}${id}?notice=${outcome}`);
  };

  return [
    { path: '/admin/campaigns', methods: { GET: list } },
    { path: PAGE_PREFIX, prefix: true, methods: { GET: show, POST: resume } },
  ];
}
