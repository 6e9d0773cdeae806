// A campaign's test send (docs/newsletter.md "Sending a post"): the mail a subscriber would get, with an
// unsubscribe link for the test address, sent now without the queue. `postbox newsletter send --test` and
// /admin's "Send a test" both go through here; how the mail leaves (a one-off mailer) is handed in.
import type { CampaignPlan } from '../newsletter/campaigns/campaign-plan.js';
import { createRecipientMail } from '../newsletter/campaigns/recipient-mail.js';
import type { Config, FormConfig, MailConfig, NewsletterForm, NewsletterList } from '../config/config.js';
import { sendOneMail } from '../adapters/mail/test-mail.js';
import { listHeaders, listHeadersWithoutForm } from '../newsletter/list-headers.js';
import { createPreferencesToken, createUnsubscribeToken } from '../newsletter/unsubscribe-token.js';
import { resolveSiteName } from '../forms/notifications.js';
import type { NewsletterStore } from '../newsletter/newsletter-store.js';
import type { Clock, MailMessage, SendOutcome } from '../ports.js';

/** What a test send came to, in words the owner can act on (the SMTP reply or network error on failure). */
export type TestSendOutcome = SendOutcome;

export interface TestSendDeps {
  /** `mail.from`. */
  from: string;
  /** `server.public_url`, for the site name when there is no site title. */
  publicUrl: string | undefined;
  /** The forms: a list's own form gives its unsubscribe link and the site name. */
  forms: readonly FormConfig[];
  siteTitle: string | undefined;
  /** `config.newsletter.preferences_url`: the preference page linked in every mail (docs/newsletter.md "Preferences"). */
  preferencesUrl: string;
  /** The newsletter secret of data_dir or PostgreSQL (created at first use), which signs unsubscribe tokens. */
  loadSecret(): Promise<Buffer>;
  /** Sends one mail now and reports how it went. */
  sendNow(message: MailMessage): Promise<TestSendOutcome>;
}

/** Sends the mail of `plan` to `address` now, as the subscriber `address` of `plan.list` would get it. */
export async function sendCampaignTest(deps: TestSendDeps, plan: Pick<CampaignPlan, 'list' | 'post' | 'body'>, address: string): Promise<TestSendOutcome> {
  const secret = await deps.loadSecret();
  return deps.sendNow(createTestMessage(deps, plan.list, plan, address, secret));
}

function createTestMessage(deps: TestSendDeps, list: NewsletterList, plan: Pick<CampaignPlan, 'post' | 'body'>, address: string, secret: Buffer): MailMessage {
  const newsletterForms = deps.forms.filter((entry): entry is NewsletterForm => entry.type === 'newsletter');
  const form = newsletterForms.find((entry) => entry.path === list.form);
  const preferencesToken = createPreferencesToken(secret, address);
  const siteForm = form ?? newsletterForms[0];
  return createRecipientMail({
    from: deps.from,
    to: address,
    body: plan.body,
    siteTitle: siteForm ? resolveSiteName(deps.siteTitle, siteForm, deps.publicUrl) : (deps.siteTitle ?? 'our website'),
    postUrl: plan.post.url,
    list: form ? listHeaders(form, createUnsubscribeToken(secret, form.path, address)) : listHeadersWithoutForm(list, deps.preferencesUrl, preferencesToken),
    preferencesUrl: `${deps.preferencesUrl}?token=${encodeURIComponent(preferencesToken)}`,
  });
}

/** The test send of `config`: its sender and site, the newsletter secret of the backend's records, a one-off mailer of `mail`. */
export function createCampaignTestSender(
  config: Config,
  mail: MailConfig,
  clock: Clock,
  records: Pick<NewsletterStore, 'secret'>,
): (plan: Pick<CampaignPlan, 'list' | 'post' | 'body'>, address: string) => Promise<TestSendOutcome> {
  const deps: TestSendDeps = {
    from: mail.from,
    publicUrl: config.server.public_url,
    forms: config.forms,
    siteTitle: config.site?.title,
    preferencesUrl: config.newsletter.preferences_url,
    loadSecret: () => records.secret(),
    sendNow: (message) => sendOneMail(mail, config.data_dir, message, clock, 'test of the campaign'),
  };
  return (plan, address) => sendCampaignTest(deps, plan, address);
}
