// "Send to subscribers" (docs/admin.md "Sending a post"; docs/newsletter.md "Sending a post"): the send page of a
// published post, its test send, the confirmation step, and the POST that creates the campaign through the same
// planCampaign and startCampaign as `postbox newsletter send`. The running service's campaign runner is woken so that
// the send starts at once. Refusals (no such post or form, sent already, still sending, no subscribers) are pages, not
// 500s. Logged: {"event":"admin_campaign_test"|"admin_campaign_started","user","form","slug","lang"[,"campaign"]}.
import { planCampaign, startCampaign, type CampaignPlan, type CampaignSources } from '../../newsletter/campaigns/campaign-plan.js';
import type { SendOutcome as TestSendOutcome } from '../../ports.js';
import { isEmailAddress } from '../../kit/email-address.js';
import type { Answer } from '../../http/answer.js';
import { createPasswordConfirmation, type PasswordAttempts } from '../reauth.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import type { AdminPage, AdminRequest, AdminRoute } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { MessagePage } from '../views/message-page.js';
import { ConfirmPage, SendPage, sendPath, type SendTarget } from './send-views.js';
import { createTestOutcomes } from './test-outcomes.js';

export interface SendPagesDeps {
  sources: CampaignSources;
  /** Sends the mail of `plan` to `address` now (src/app/campaign-test-send.ts). */
  sendTest(plan: CampaignPlan, address: string): Promise<TestSendOutcome>;
  /** Tells the running service's campaign runner to look now (it looks every 2 s anyway). */
  wakeRunner(): void;
  clock: Clock;
  /** Random hex digits for campaign ids and test-outcome keys. */
  randomHex(): string;
  logger: Logger;
  /** Whether `password` is `user`'s: sending asks for it again 15 minutes after sign-in (docs/admin.md "Sending a post"). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` as proved now. */
  confirmSession(request: AdminRequest): Promise<void>;
  /** The sign-in throttle: a wrong password asked again counts there, for the user on every page and replica (../reauth.tsx). */
  passwordAttempts: PasswordAttempts;
}

type Wanted = { slug: string; lang?: string; form?: string };

export function createSendPages(deps: SendPagesDeps): AdminRoute[] {
  const { sources, logger } = deps;
  const outcomes = createTestOutcomes(deps.randomHex);
  const fromQuery = (request: AdminRequest): URLSearchParams => new URLSearchParams(request.query);
  const fromForm = (request: AdminRequest): URLSearchParams => request.form?.fields ?? new URLSearchParams();
  const wantedOf = (fields: URLSearchParams): Wanted => ({
    slug: fields.get('post') ?? '',
    lang: fields.get('lang') || undefined,
    form: fields.get('form') || undefined,
  });
  const message = (status: number, session: AdminSession, title: string, text: string, link = { href: '/admin/posts', label: 'Back to the posts' }): Answer =>
    htmlAnswer(status, <MessagePage title={title} message={text} session={session} link={link} />);

  /** The plan for what the request names, or the page saying why there is none. */
  async function planOf(wanted: Wanted, session: AdminSession): Promise<{ plan: CampaignPlan; target: SendTarget } | { answer: Answer }> {
    const list = wanted.form ?? sources.lists[0]?.log.path;
    if (list === undefined) return { answer: message(404, session, 'No newsletter list', 'The configuration has no newsletter list to send posts to.') };
    const plan = await planCampaign(sources, { list, slug: wanted.slug, lang: wanted.lang });
    if ('problem' in plan) {
      return plan.problem === 'no_list'
        ? { answer: message(404, session, 'No such newsletter list', `There is no newsletter list by that name. Lists: ${plan.lists.join(', ') || 'none'}.`) }
        : { answer: message(404, session, 'No such published post', 'There is no published post by that name in that language. Drafts and scheduled posts are not sent.') };
    }
    return { plan, target: { slug: plan.post.slug, lang: plan.post.lang, form: plan.list.log.path } };
  }

  const show: AdminPage = async (request, session) => {
    const query = fromQuery(request);
    const found = await planOf(wantedOf(query), session);
    if ('answer' in found) return found.answer;
    const { plan, target } = found;
    // Every list, named by its campaign key (a form's path, or the id of a list without a form).
    const forms = await Promise.all(
      sources.lists.map(async (list) => ({ path: list.log.path, subscribers: list === plan.list ? plan.recipients.length : (await sources.readSubscribers(list.log)).length })),
    );
    const test = outcomes.find(session.user, query.get('test') ?? '');
    return htmlAnswer(200, <SendPage session={session} title={plan.post.title} target={target} forms={forms} earlier={plan.earlier} test={test} />);
  };

  const test: AdminPage = async (request, session) => {
    const fields = fromForm(request);
    const found = await planOf(wantedOf(fields), session);
    if ('answer' in found) return found.answer;
    const { plan, target } = found;
    const address = (fields.get('address') ?? '').trim();
    if (!isEmailAddress(address)) {
      return message(422, session, 'No test sent', 'That is not an email address. Give the address the test should go to.', { href: sendPath(target), label: 'Back to the send page' });
    }
    const outcome = await deps.sendTest(plan, address);
    logger.info({ event: 'admin_campaign_test', user: session.user, form: target.form, slug: target.slug, lang: target.lang, ok: outcome.ok }, 'admin: campaign test sent');
    return redirectAnswer(sendPath(target, { test: outcomes.keep(session.user, address, outcome) }));
  };

  const confirm: AdminPage = async (request, session) => {
    const found = await planOf(wantedOf(fromQuery(request)), session);
    if ('answer' in found) return found.answer;
    const { plan, target } = found;
    return htmlAnswer(200, <ConfirmPage session={session} title={plan.post.title} target={target} subscribers={plan.recipients.length} earlier={plan.earlier} />);
  };

  const withConfirmedPassword = createPasswordConfirmation(deps);
  const start: AdminPage = (request, session) => withConfirmedPassword(request, session, 'campaigns', () => startNow(request, session));
  const startNow = async (request: AdminRequest, session: AdminSession): Promise<Answer> => {
    const fields = fromForm(request);
    const found = await planOf(wantedOf(fields), session);
    if ('answer' in found) return found.answer;
    const { plan, target } = found;
    const outcome = await startCampaign(sources.store, plan, { resend: fields.get('resend') === 'on', now: deps.clock(), randomHex: deps.randomHex() });
    if ('refused' in outcome) {
      const back = { href: sendPath(target), label: 'Back to the send page' };
      const earlier = outcome.earlier;
      switch (outcome.refused) {
        case 'no_subscribers':
          return message(422, session, 'Nothing to send', `${target.form} has no confirmed subscribers.`, back);
        case 'taken':
          return message(409, session, 'Already started', `Another send of this post to ${target.form} in ${target.lang} started at the same moment: it is in the campaigns.`, {
            href: '/admin/campaigns',
            label: 'See the campaigns',
          });
        case 'still_sending':
          return message(409, session, 'Still sending', `Campaign ${earlier?.id ?? ''} is still sending this post to ${target.form}. Wait until it has finished.`, {
            href: `/admin/campaigns/${earlier?.id ?? ''}`,
            label: 'Follow that campaign',
          });
        default:
          return message(
            409,
            session,
            'Already sent',
            `This post was sent to ${target.form} in ${target.lang} already (campaign ${earlier?.id ?? ''}). To send it again, tick "Send again" on the confirmation step.`,
            { href: sendPath(target, {}, '/admin/newsletter/confirm'), label: 'Back to the confirmation step' },
          );
      }
    }
    const { id } = outcome.started;
    logger.info({ event: 'admin_campaign_started', user: session.user, campaign: id, form: target.form, slug: target.slug, lang: target.lang }, 'admin: campaign started');
    deps.wakeRunner();
    return redirectAnswer(`/admin/campaigns/${id}`);
  };

  return [
    { path: '/admin/newsletter/send', methods: { GET: show } },
    { path: '/admin/newsletter/test', methods: { POST: test } },
    { path: '/admin/newsletter/confirm', methods: { GET: confirm } },
    { path: '/admin/newsletter/start', methods: { POST: start } },
  ];
}
