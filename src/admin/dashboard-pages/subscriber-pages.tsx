// /admin/subscribers and /admin/subscribers/<form> (docs/admin.md "Subscribers"): the lists of the newsletter
// forms, one list paged 100 at a time with its pending count, unsubscribes per day and campaigns, the CSV export
// (streamed), and "Remove", which asks first (a page naming the address) and then goes through the running
// newsletter so that its list in memory and its log agree.
import { Readable } from 'node:stream';
import { progressOf, type CampaignProgress, type CampaignRequest } from '../../newsletter/campaigns/campaign.js';
import type { NewsletterForm } from '../../config/config.js';
import { csvRow } from '../../kit/csv.js';
import type { Subscriber } from '../../newsletter/index.js';
import type { Logger } from '../../kit/log.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { MessagePage } from '../views/message-page.js';
import { CHART_DAYS } from './dashboard-data.js';
import type { DashboardSources } from './dashboard-sources.js';
import { noticeOf } from './notices.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import { subscriberHistory } from './subscriber-history.js';
import { formPathOf, SUBSCRIBERS_PATH, subscribersPathOf } from './subscriber-paths.js';
import { SubscriberListPage, SubscribersOverviewPage } from './subscriber-views.js';

/** Subscribers on one page of a list. */
export const SUBSCRIBERS_PER_PAGE = 100;

export interface SubscriberPagesDeps {
  sources: DashboardSources;
  /** The current list of `form`, oldest subscription first (readSubscribers over the log). */
  readSubscribers(form: NewsletterForm): Promise<Subscriber[]>;
  logger: Logger;
}

export function createSubscriberPages(deps: SubscriberPagesDeps): AdminRoute[] {
  const { sources, logger } = deps;
  const newsletters = sources.forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  const formAt = (pagePath: string) => {
    const formPath = formPathOf(pagePath);
    return newsletters.find((form) => form.path === formPath);
  };
  const notFound: AdminPage = (_request, session) =>
    htmlAnswer(404, <MessagePage title="No such list" message="No newsletter form has this address." session={session} link={{ href: SUBSCRIBERS_PATH, label: 'Every list' }} />);

  const overview: AdminPage = async (_request, session) => {
    const pending = await sources.countPending(sources.clock());
    const lists = await Promise.all(newsletters.map(async (form) => ({ form: form.path, subscribers: (await deps.readSubscribers(form)).length, pending: pending.get(form.path) ?? 0 })));
    return htmlAnswer(200, <SubscribersOverviewPage session={session} lists={lists} />);
  };

  const show: AdminPage = async (request, session) => {
    const form = formAt(request.path);
    if (!form) return notFound(request, session);
    const query = new URLSearchParams(request.query);
    if (query.get('export') === 'csv') {
      logger.info({ event: 'admin_subscribers_exported', user: session.user, form: form.path }, 'subscribers exported');
      return csvAnswer(form, await deps.readSubscribers(form));
    }
    const now = sources.clock();
    const all = (await deps.readSubscribers(form)).reverse();
    const pages = Math.max(1, Math.ceil(all.length / SUBSCRIBERS_PER_PAGE));
    const page = Math.min(pages, Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1));
    const history = subscriberHistory(await sources.readSubscriberLines(form), form.path, CHART_DAYS, now);
    return htmlAnswer(
      200,
      <SubscriberListPage
        session={session}
        form={form.path}
        total={all.length}
        pending={(await sources.countPending(now)).get(form.path) ?? 0}
        subscribers={all.slice((page - 1) * SUBSCRIBERS_PER_PAGE, page * SUBSCRIBERS_PER_PAGE)}
        page={page}
        pages={pages}
        unsubscribes={history.unsubscribes}
        campaigns={await campaignsOf(sources, form.path)}
        notice={noticeOf(request.query)}
      />,
    );
  };

  const remove: AdminPage = async (request, session) => {
    const form = formAt(request.path);
    if (!form) return notFound(request, session);
    const email = request.form?.fields.get('email') ?? '';
    const newsletter = sources.newsletter();
    if (!newsletter) return redirectAnswer(`${subscribersPathOf(form.path)}?notice=not_running`);
    if (!isConfirmed(request.form?.fields)) {
      const list = subscribersPathOf(form.path);
      return htmlAnswer(
        200,
        <ConfirmPage session={session} section="subscribers" title={`Remove ${email} from ${form.path}?`} action={list} fields={{ email }} cancel={{ href: list, label: 'Cancel, back to the list' }}>
          <p>
            <strong>{email}</strong> will be deleted from the subscribers of {form.path}: an unsubscribed line is added to
            the list’s log, as the unsubscribe link would, and no further campaign is sent to this address. Only the person
            can subscribe again.
          </p>
        </ConfirmPage>,
      );
    }
    const outcome = await newsletter.remove(form, email).catch((error: unknown) => {
      if (error instanceof UnavailableError) return 'unavailable' as const;
      throw error;
    });
    if (outcome === 'removed') logger.info({ event: 'admin_subscriber_removed', user: session.user, form: form.path }, 'subscriber removed');
    return redirectAnswer(`${subscribersPathOf(form.path)}?notice=${outcome}`);
  };

  return [
    { path: SUBSCRIBERS_PATH, methods: { GET: overview } },
    { path: `${SUBSCRIBERS_PATH}/`, prefix: true, methods: { GET: show, POST: remove } },
  ];
}

/** The campaigns sent to `formPath`, newest first, with their counts. */
async function campaignsOf(sources: DashboardSources, formPath: string): Promise<Array<{ request: CampaignRequest; progress: CampaignProgress }>> {
  const requests = (await sources.campaigns.list()).filter((request) => request.form === formPath).reverse();
  return Promise.all(requests.map(async (request) => ({ request, progress: progressOf(await sources.campaigns.readJournal(request.id), request.recipients) })));
}

/** RFC 4180 with a header row, one row at a time: the list is in memory already, the text need not be. */
function csvAnswer(form: NewsletterForm, subscribers: readonly Subscriber[]) {
  function* rows() {
    yield 'email,subscribed_at\r\n';
    for (const subscriber of subscribers) yield csvRow([subscriber.email, subscriber.subscribed_at]);
  }
  const name = `subscribers${form.path.replace(/[^A-Za-z0-9]+/g, '-')}.csv`;
  return {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
    body: Readable.from(rows()),
  };
}
