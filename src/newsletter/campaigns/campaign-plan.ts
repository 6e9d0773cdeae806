// What `postbox newsletter send` and /admin's "Send to subscribers" share (docs/newsletter.md "Sending a post"):
// finding the form, the post and the list, rendering the mail once, and creating the campaign, refused when the
// same post already went to the same form in the same language (unless it is sent again on purpose).
import type { FormConfig, NewsletterForm, NewsletterSegment } from '../../config/config.js';
import { segmentMembers } from '../segments.js';
import type { Subscriber } from '../subscriber-events.js';
import type { PublishedPost } from '../../blog/published-post.js';
import { createCampaignId, progressOf, type CampaignRequest } from './campaign.js';
import { renderCampaignContent } from './campaign-mail.js';
import type { CampaignBody, CampaignStore } from './campaign-store.js';

export interface CampaignSources {
  forms: readonly FormConfig[];
  /** The published version of `slug` in `lang` (the primary one without it). */
  findPost(slug: string, lang?: string): PublishedPost | undefined;
  /** The confirmed subscribers of `form` now, in the order of the list. */
  readSubscribers(form: NewsletterForm): Promise<readonly Subscriber[]>;
  store: CampaignStore;
  site: { title: string; baseUrl: string };
}

/** A campaign ready to be created: the mail rendered, the list read, and the earlier campaigns of the same post. */
export interface CampaignPlan {
  form: NewsletterForm;
  post: PublishedPost;
  body: CampaignBody;
  /** The subscribers the campaign goes to: the whole list, or those of the segment asked for. */
  recipients: string[];
  /** With a segment: how many are on its whole list now. */
  listCount: number;
  /** Campaigns that sent the same post to the same form in the same language, with whether they finished. */
  earlier: Array<{ request: CampaignRequest; finished: boolean }>;
}

export type PlanProblem = { problem: 'no_form'; newsletters: string[] } | { problem: 'no_post' };

/** `taken`: another send of the same post to the same form and language started at the same moment. */
export type StartOutcome = { started: CampaignRequest } | { refused: 'already_sent' | 'still_sending' | 'no_subscribers' | 'taken'; earlier?: CampaignRequest };

/** `segment`: only the subscribers it takes (docs/newsletter.md "Segments"), over the list as it is now. */
export async function planCampaign(sources: CampaignSources, wanted: { form: string; slug: string; lang?: string; segment?: NewsletterSegment }): Promise<CampaignPlan | PlanProblem> {
  const form = sources.forms.find((entry): entry is NewsletterForm => entry.path === wanted.form && entry.type === 'newsletter');
  if (!form) return { problem: 'no_form', newsletters: sources.forms.filter((entry) => entry.type === 'newsletter').map((entry) => entry.path) };
  const post = sources.findPost(wanted.slug, wanted.lang);
  if (!post) return { problem: 'no_post' };
  const subscribers = await sources.readSubscribers(form);
  const earlier: CampaignPlan['earlier'] = [];
  for (const request of await sources.store.list()) {
    if (request.form !== form.path || request.slug !== post.slug || request.lang !== post.lang) continue;
    earlier.push({ request, finished: progressOf(await sources.store.readJournal(request.id), request.recipients).finished });
  }
  return {
    form,
    post,
    body: renderCampaignContent(post, sources.site),
    recipients: (wanted.segment ? segmentMembers(wanted.segment, subscribers) : subscribers).map((subscriber) => subscriber.email),
    listCount: subscribers.length,
    earlier,
  };
}

/** Creates the campaign of `plan`; a running `serve` starts sending it within two seconds. */
export async function startCampaign(store: CampaignStore, plan: CampaignPlan, options: { resend: boolean; now: number; randomHex: string }): Promise<StartOutcome> {
  const sending = plan.earlier.find((entry) => !entry.finished);
  if (sending) return { refused: 'still_sending', earlier: sending.request };
  const last = plan.earlier.at(-1);
  if (last && !options.resend) return { refused: 'already_sent', earlier: last.request };
  if (plan.recipients.length === 0) return { refused: 'no_subscribers' };
  const after = plan.earlier.map((entry) => entry.request.id);
  if (!(await store.claim(plan.form.path, plan.post.slug, plan.post.lang, after))) return { refused: 'taken' };
  const request: CampaignRequest = {
    id: createCampaignId(options.now, options.randomHex),
    form: plan.form.path,
    slug: plan.post.slug,
    lang: plan.post.lang,
    subject: plan.body.subject,
    post_url: plan.post.url,
    created_at: new Date(options.now).toISOString(),
    recipients: plan.recipients.length,
    resend: last !== undefined,
  };
  await store.create(request, plan.body, plan.recipients);
  return { started: request };
}
