// What `postbox newsletter send` and /admin's "Send to subscribers" share (docs/newsletter.md "Sending a post"):
// finding the list (a newsletter form's own, or one of `[[newsletter.lists]]`), the post and the subscribers,
// rendering the mail once, and creating the campaign, refused when the same post already went to the same list in
// the same language (unless it is sent again on purpose). A campaign names its list by the key of its subscriber
// log: a form's path, or the id of a list without a form.
import type { NewsletterList, NewsletterSegment, SubscriberLogRef } from '../../config/config.js';
import { segmentMembers } from '../segments.js';
import type { Subscriber } from '../subscriber-events.js';
import type { PublishedPost } from '../../blog/published-post.js';
import { createCampaignId, progressOf, type CampaignRequest } from './campaign.js';
import { renderCampaignContent } from './campaign-mail.js';
import type { CampaignBody, CampaignStore } from './campaign-store.js';

export interface CampaignSources {
  /** Every newsletter list (`config.newsletter.lists`). */
  lists: readonly NewsletterList[];
  /** The published version of `slug` in `lang` (the primary one without it). */
  findPost(slug: string, lang?: string): PublishedPost | undefined;
  /** The confirmed subscribers of the list `log` now, in the order of the list. */
  readSubscribers(log: SubscriberLogRef): Promise<readonly Subscriber[]>;
  store: CampaignStore;
  site: { title: string; baseUrl: string };
}

/** A campaign ready to be created: the mail rendered, the list read, and the earlier campaigns of the same post. */
export interface CampaignPlan {
  list: NewsletterList;
  post: PublishedPost;
  body: CampaignBody;
  /** The subscribers the campaign goes to: the whole list, or those of the segment asked for. */
  recipients: string[];
  /** With a segment: how many are on its whole list now. */
  listCount: number;
  /** Campaigns that sent the same post to the same list in the same language, with whether they finished. */
  earlier: Array<{ request: CampaignRequest; finished: boolean }>;
}

/** `no_list`: no list by that key; `lists` names the keys there are. */
export type PlanProblem = { problem: 'no_list'; lists: string[] } | { problem: 'no_post' };

/** The list `key` names: a form's path or a list id, as its subscriber log is keyed (`log.path`), or its id. */
export function findCampaignList(lists: readonly NewsletterList[], key: string): NewsletterList | undefined {
  return lists.find((list) => list.log.path === key) ?? lists.find((list) => list.id === key);
}

/** `taken`: another send of the same post to the same form and language started at the same moment. */
export type StartOutcome = { started: CampaignRequest } | { refused: 'already_sent' | 'still_sending' | 'no_subscribers' | 'taken'; earlier?: CampaignRequest };

/** `segment`: only the subscribers it takes (docs/newsletter.md "Segments"), over the list as it is now. */
export async function planCampaign(sources: CampaignSources, wanted: { list: string; slug: string; lang?: string; segment?: NewsletterSegment }): Promise<CampaignPlan | PlanProblem> {
  const list = findCampaignList(sources.lists, wanted.list);
  if (!list) return { problem: 'no_list', lists: sources.lists.map((entry) => entry.log.path) };
  const post = sources.findPost(wanted.slug, wanted.lang);
  if (!post) return { problem: 'no_post' };
  const subscribers = await sources.readSubscribers(list.log);
  const earlier: CampaignPlan['earlier'] = [];
  for (const request of await sources.store.list()) {
    if (request.form !== list.log.path || request.slug !== post.slug || request.lang !== post.lang) continue;
    earlier.push({ request, finished: progressOf(await sources.store.readJournal(request.id), request.recipients).finished });
  }
  return {
    list,
    post,
    body: renderCampaignContent(post, sources.site, list.layout),
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
  if (!(await store.claim(plan.list.log.path, plan.post.slug, plan.post.lang, after))) return { refused: 'taken' };
  const request: CampaignRequest = {
    id: createCampaignId(options.now, options.randomHex),
    form: plan.list.log.path,
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
