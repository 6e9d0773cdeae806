// The on_publish and digest automations (docs/newsletter.md "Automations"): every half minute, and at start (which
// catches up what came due while no process ran), each one that is not paused looks for its work and hands it to
// the campaigns (src/newsletter/campaigns/), which send it through the mail queue at `send_per_minute`, journal
// each recipient and resume after a crash or on another replica without mailing anyone twice.
//
// Exactly once per (automation, item), an item being a post in one language or a digest's run: the item is claimed
// in the store (automation-store.ts) before anything is planned, the claim naming the campaign that will mail it.
// A process killed between the claim and the campaign leaves a claim without its campaign: a minute later any
// replica plans that campaign, under the same id, so one of them alone creates it (its key in PostgreSQL, a folder
// renamed into place in data_dir).
import { createHash } from 'node:crypto';
import type { NewsletterList, NewsletterSegment, PostAutomation, SubscriberLogRef } from '../../config/config.js';
import type { PublishedPost, PublishedVersion } from '../../blog/published-post.js';
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Clock, Timers } from '../../ports.js';
import { createCampaignId, type CampaignRequest } from '../campaigns/campaign.js';
import { renderCampaignContent } from '../campaigns/campaign-mail.js';
import type { CampaignBody, CampaignStore } from '../campaigns/campaign-store.js';
import { segmentMembers } from '../segments.js';
import type { Subscriber } from '../subscriber-events.js';
import { fillFields } from '../welcome.js';
import type { AutomationItem, AutomationState, AutomationStore } from './automation-store.js';
import { digestPost } from './digest-content.js';
import { lastRunAtOrBefore } from './digest-schedule.js';
import { createAutomationControl, type AutomationControl } from './automation-control.js';

export type { AutomationOverview } from './automation-control.js';

/** Half a minute between the end of a run and the next: within a minute of its time (docs/newsletter.md "Automations"). */
const DEFAULT_INTERVAL_MS = 30_000;
/** A claim this old without its campaign was left by a process that died while planning it. */
const DEFAULT_RECOVER_AFTER_MS = 60_000;

/** The posts as the blog publishes them now. */
export interface AutomationPosts {
  listPublished(): readonly PublishedVersion[];
  findPublishedPost(slug: string, lang: string): PublishedPost | undefined;
  /** When the next scheduled post comes due; undefined when none is scheduled. */
  nextScheduledAt(): number | undefined;
}

export interface PostAutomationsDeps {
  automations: readonly PostAutomation[];
  lists: readonly NewsletterList[];
  segments: readonly NewsletterSegment[];
  posts: AutomationPosts;
  /** The current subscribers of a list (a form's own or one of `[[newsletter.lists]]`), in its order. */
  subscribers(log: SubscriberLogRef): Promise<readonly Subscriber[]>;
  store: AutomationStore;
  campaigns: CampaignStore;
  site: { title: string; baseUrl: string; language: string };
  /** `[admin] time_zone`: when digests run. */
  timeZone: string;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  /** Told when a campaign was created, so that the feeder starts it now rather than at its next poll. */
  onCampaign?(): void;
  /** Resumes a campaign held by a pause, through this process's feeder; appended to its journal without one. */
  resumeCampaign?(id: string, by: string): Promise<unknown>;
  intervalMs?: number;
  recoverAfterMs?: number;
}

export interface PostAutomations extends AutomationControl {
  /** Runs now, then once per interval until stopped. */
  start(): void;
  /** One run of every automation; resolves once it is done (tests drive it on fake time). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** The key of a post in one language. */
export const postItemOf = (slug: string, lang: string) => `post:${lang}:${slug}`;

/** The campaign id of an item: its time, then a part drawn from the item, the same on every replica that plans it. */
export function campaignIdOf(automation: string, item: string, at: number): string {
  return createCampaignId(at, createHash('sha256').update(`${automation}\n${item}`).digest('hex').slice(0, 8));
}

export function createPostAutomations(deps: PostAutomationsDeps): PostAutomations {
  const { store, campaigns, posts, logger, clock, timers } = deps;
  const intervalMs = deps.intervalMs ?? DEFAULT_INTERVAL_MS;
  const recoverAfterMs = deps.recoverAfterMs ?? DEFAULT_RECOVER_AFTER_MS;
  /** Per automation, the items known to be taken: not asked for again. */
  const known = new Map<string, Set<string>>();
  /** Campaigns known to exist. */
  const created = new Set<string>();
  let timer: unknown;
  let running: Promise<void> | undefined;
  let stopped = false;

  const knownOf = (id: string) => {
    let set = known.get(id);
    if (!set) known.set(id, (set = new Set()));
    return set;
  };
  const isoOf = (ms: number) => new Date(ms).toISOString();

  /** The list an automation mails (its segment's, for a segment), any list: campaigns name it by its log's key. */
  function audienceOf(automation: PostAutomation): { log: SubscriberLogRef; segment?: NewsletterSegment } | undefined {
    const segment = automation.segment === undefined ? undefined : deps.segments.find((entry) => entry.id === automation.segment);
    const listId = segment?.list ?? automation.list;
    const list = deps.lists.find((entry) => entry.id === listId);
    return list && { log: list.log, ...(segment ? { segment } : {}) };
  }

  /** Everything that happens in one run, each automation on its own: one that fails does not hold up the others. */
  async function runOnce(): Promise<void> {
    let states: Map<string, AutomationState>;
    try {
      states = new Map((await store.states()).map((state) => [state.automation, state]));
    } catch (error) {
      logger.warn({ event: 'automation_run_failed', reason: safeReason(error) }, 'the automations could not be read; tried again in a minute');
      return;
    }
    for (const automation of deps.automations) {
      if (stopped) return;
      try {
        const state = states.get(automation.id) ?? (await register(automation));
        if (state.paused) continue;
        if (automation.type === 'on_publish') await publishNew(automation);
        else await digestDue(automation, state);
        await recover(automation, state);
      } catch (error) {
        logger.error({ event: 'automation_run_failed', automation: automation.id, reason: safeReason(error) }, 'an automation could not run; tried again in a minute');
      }
    }
  }

  /** The first run of an automation: posts visible now are not mailed by an on_publish one. */
  function register(automation: PostAutomation): Promise<AutomationState> {
    const baseline = automation.type === 'on_publish' ? posts.listPublished().map((post) => postItemOf(post.slug, post.lang)) : [];
    logger.info({ event: 'automation_added', automation: automation.id, posts_already_visible: baseline.length }, 'automation added');
    return store.register(automation.id, isoOf(clock()), baseline);
  }

  /** Claims each post visible now that the automation has not taken, oldest first, and plans its campaign. */
  async function publishNew(automation: PostAutomation): Promise<void> {
    const taken = knownOf(automation.id);
    const fresh = posts.listPublished().filter((post) => !taken.has(postItemOf(post.slug, post.lang)));
    if (fresh.length === 0) return;
    for (const item of await store.claimedAmong(automation.id, fresh.map((post) => postItemOf(post.slug, post.lang)))) taken.add(item);
    for (const post of [...fresh].reverse()) {
      const item = postItemOf(post.slug, post.lang);
      if (taken.has(item) || stopped) continue;
      const audience = audienceOf(automation);
      if (!audience) return;
      const now = clock();
      const entry: AutomationItem = !post.newsletter
        ? { automation: automation.id, item, outcome: 'opted_out', at: isoOf(now) }
        : (await wasSentByHand(audience.log, post))
          ? { automation: automation.id, item, outcome: 'sent_by_hand', at: isoOf(now) }
          : { automation: automation.id, item, outcome: 'campaign', campaign: campaignIdOf(automation.id, item, now), at: isoOf(now) };
      const claimed = await store.claim(entry);
      taken.add(item);
      if (!claimed) continue;
      logger.info({ event: 'automation_claimed', automation: automation.id, post: post.slug, lang: post.lang, outcome: entry.outcome }, 'a post reached its automation');
      if (entry.campaign) await plan(automation, entry);
    }
  }

  /** Whether the post went to the list in this language from `postbox newsletter send` or /admin. */
  async function wasSentByHand(log: SubscriberLogRef, post: PublishedVersion): Promise<boolean> {
    return (await campaigns.list()).some((request) => request.form === log.path && request.slug === post.slug && request.lang === post.lang);
  }

  /** The last digest run due, unless taken: its posts' campaign, or `empty` when the period had none. */
  async function digestDue(automation: PostAutomation & { type: 'digest' }, state: AutomationState): Promise<void> {
    const due = lastRunAtOrBefore(automation, clock(), deps.timeZone);
    if (due <= Date.parse(state.addedAt)) return;
    const item = `digest:${isoOf(due)}`;
    const taken = knownOf(automation.id);
    if (taken.has(item)) return;
    if ((await store.claimedAmong(automation.id, [item])).has(item)) {
      taken.add(item);
      return;
    }
    const entries = await digestEntries(automation, state, due);
    const now = clock();
    const entry: AutomationItem =
      entries.length === 0
        ? { automation: automation.id, item, outcome: 'empty', at: isoOf(now) }
        : { automation: automation.id, item, outcome: 'campaign', campaign: campaignIdOf(automation.id, item, now), at: isoOf(now) };
    const claimed = await store.claim(entry);
    taken.add(item);
    if (!claimed) return;
    logger.info({ event: 'automation_claimed', automation: automation.id, digest: isoOf(due), posts: entries.length, outcome: entry.outcome }, 'a digest came due');
    if (entry.campaign) await plan(automation, entry);
  }

  /** The primary versions published in the digest's period: since the run before (or the automation's start) until `due`. */
  async function digestEntries(automation: PostAutomation, state: AutomationState, due: number): Promise<PublishedVersion[]> {
    const earlier = (await store.runs(automation.id)).flatMap((run) => (run.item.startsWith('digest:') ? [Date.parse(run.item.slice('digest:'.length))] : [])).filter((at) => at < due);
    const since = Math.max(Date.parse(state.addedAt), ...earlier);
    return posts.listPublished().filter((post) => post.primary && post.newsletter && post.publishedAt >= since && post.publishedAt < due);
  }

  /** Creates the campaign an item's claim names, over the list as it is now; a replica that created it first wins. */
  async function plan(automation: PostAutomation, entry: AutomationItem): Promise<void> {
    const id = entry.campaign!;
    const audience = audienceOf(automation);
    if (!audience) return;
    const content = await contentOf(automation, entry);
    if (!content) {
      logger.warn({ event: 'automation_post_gone', automation: automation.id, item: entry.item }, 'the post of an automation is no longer published; it is planned when it is back');
      return;
    }
    const subscribers = await deps.subscribers(audience.log);
    const members = audience.segment ? segmentMembers(audience.segment, subscribers) : subscribers;
    // A person on the lists of two on_publish automations gets the post once: each address goes to one campaign of the
    // post, by a claim in the store that holds while other replicas plan the same post (a replanning keeps its own).
    const emails = members.map((subscriber) => subscriber.email);
    const recipients = automation.type === 'on_publish' ? await store.claimRecipients(entry.item, id, emails) : emails;
    const request: CampaignRequest = {
      id,
      form: audience.log.path,
      slug: content.slug,
      lang: content.body.lang,
      subject: content.body.subject,
      post_url: content.url,
      created_at: entry.at,
      recipients: recipients.length,
      resend: false,
    };
    try {
      await campaigns.create(request, content.body, recipients);
    } catch (error) {
      // Another replica planned it at the same moment and created it first.
      if (!(await campaigns.read(id).catch(() => undefined))) throw error;
    }
    created.add(id);
    logger.info({ event: 'automation_campaign', automation: automation.id, campaign: id, recipients: recipients.length }, 'automation campaign created');
    deps.onCampaign?.();
  }

  /** The mail of an item: the post rendered, or the digest of its period. */
  async function contentOf(automation: PostAutomation, entry: AutomationItem): Promise<{ body: CampaignBody; slug: string; url: string } | undefined> {
    const site = { title: deps.site.title, baseUrl: deps.site.baseUrl };
    if (automation.type === 'on_publish') {
      const [, lang, ...slugParts] = entry.item.split(':');
      const post = posts.findPublishedPost(slugParts.join(':'), lang!);
      if (!post) return undefined;
      const body = renderCampaignContent(post, site);
      return { body: { ...body, subject: fillFields(automation.subject, { title: body.subject, site: site.title }) }, slug: post.slug, url: post.url };
    }
    const state = (await store.states()).find((candidate) => candidate.automation === automation.id);
    const due = Date.parse(entry.item.slice('digest:'.length));
    const versions = state ? await digestEntries(automation, state, due) : [];
    const entries = versions.flatMap((version) => {
      const post = posts.findPublishedPost(version.slug, version.lang);
      return post ? [{ title: post.title, url: post.url, date: post.date }] : [];
    });
    const post = digestPost({ subject: automation.subject, body: automation.body, entries, site, lang: deps.site.language, at: isoOf(due) });
    return { body: renderCampaignContent(post, site), slug: `digest-${automation.id}`, url: site.baseUrl };
  }

  /** Plans the campaigns of claims left without one by a process that died after claiming (a minute after the claim). */
  async function recover(automation: PostAutomation, state: AutomationState): Promise<void> {
    if (state.paused) return;
    for (const run of await store.runs(automation.id)) {
      if (!run.campaign || created.has(run.campaign) || stopped) continue;
      if (await campaigns.read(run.campaign).catch(() => undefined)) {
        created.add(run.campaign);
        continue;
      }
      if (clock() - Date.parse(run.at) < recoverAfterMs) continue;
      logger.warn({ event: 'automation_recovered', automation: automation.id, item: run.item, campaign: run.campaign }, 'an automation claim had no campaign: planning it now');
      await plan(automation, run);
    }
  }

  const loop = () => {
    running = runOnce().finally(() => {
      running = undefined;
      if (!stopped) timer = timers.setTimeout(loop, intervalMs);
    });
  };

  return {
    start: loop,
    async runOnce() {
      await running;
      await runOnce();
    },
    async stop() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      await running;
    },
    ...createAutomationControl({ ...deps, register }),
  };
}
