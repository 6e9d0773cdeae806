// The on_publish and digest automations over real stores (data_dir files or one PostgreSQL), each "replica" with its
// own automations, campaign feeder and ledger, and a mail queue in memory that delivers a mail a turn after it was
// queued into one shared inbox. Posts are a list the test edits, published once fake time reaches their date.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NewsletterList, NewsletterSegment, PostAutomation } from '../../../src/config/config.js';
import type { PublishedPost, PublishedVersion } from '../../../src/blog/published-post.js';
import type { AutomationStore } from '../../../src/newsletter/automations/automation-store.js';
import { createPostAutomations, type PostAutomations } from '../../../src/newsletter/automations/post-automations.js';
import { createCampaignFeeder, type CampaignFeeder } from '../../../src/newsletter/campaigns/campaign-feeder.js';
import { createCampaignLedger, type CampaignLedger } from '../../../src/newsletter/campaigns/campaign-ledger.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import type { Subscriber } from '../../../src/newsletter/subscriber-events.js';
import type { QueuedMessage } from '../../../src/queue/outgoing.js';
import type { FakeTimer } from '../../support/fake-timers.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';

export const LISTS: NewsletterList[] = [{ id: 'newsletter', name: 'Newsletter', description: '', public: true, form: '/newsletter', log: { path: '/newsletter', subscribers: 'newsletter-subscribers.jsonl' } }];
export const SITE = { title: 'Example', baseUrl: 'https://example.com', language: 'en' };

/** A post the test publishes: visible once fake time reaches `date`. */
export interface TestPost {
  slug: string;
  lang: string;
  title: string;
  date: number;
  newsletter: boolean;
}

export interface Replica {
  automations: PostAutomations;
  feeder: CampaignFeeder;
  logs: LogCapture;
  /** Its feeder runs from the start; its automations run when the test calls `runOnce` (or `start`). Stops it as a kill does: its stores refuse every call from then on (its campaign lease stays until it lapses). */
  kill(): Promise<void>;
}

export interface HarnessOptions {
  timers: FakeTimer;
  automations: PostAutomation[];
  segments?: NewsletterSegment[];
  /** The subscribers of every list, or those of each list by its log's key. */
  subscribers: Subscriber[] | ((key: string) => Subscriber[]);
  /** The lists; LISTS unless given. */
  lists?: NewsletterList[];
  /** The stores one replica works on (each its own connection, or the same files). */
  stores(name: string): { store: AutomationStore; campaigns: CampaignStore };
  timeZone?: string;
  /** The campaigns' pace; no limit unless given. */
  sendPerMinute?: number;
}

export function createHarness(options: HarnessOptions) {
  const { timers } = options;
  const posts: TestPost[] = [];
  /** Every mail delivered, by any replica. */
  const inbox: Array<{ to: string; subject: string; html: string; by: string }> = [];
  const replicas: Replica[] = [];

  const visible = () => posts.filter((post) => post.date <= timers.now());
  const postsPort = {
    listPublished: (): PublishedVersion[] =>
      visible()
        .sort((a, b) => b.date - a.date)
        .map((post) => ({ slug: post.slug, lang: post.lang, publishedAt: post.date, newsletter: post.newsletter, primary: true })),
    findPublishedPost: (slug: string, lang: string): PublishedPost | undefined => {
      const post = visible().find((candidate) => candidate.slug === slug && candidate.lang === lang);
      return post && { slug, lang, title: post.title, url: `${SITE.baseUrl}/blog/${slug}`, html: `<p>${post.title} is here.</p>`, date: new Date(post.date).toISOString() };
    },
    nextScheduledAt: () => {
      const next = posts.filter((post) => post.date > timers.now()).map((post) => post.date);
      return next.length > 0 ? Math.min(...next) : undefined;
    },
  };

  /** The queue every replica shares (as PostgreSQL's is): a mail waits there until a live replica delivers it. */
  const pending: Array<{ queued: QueuedMessage; by: string }> = [];
  const ledgers = new Map<string, CampaignLedger>();
  let enqueued = 0;
  const deliverOne = async (entry: { queued: QueuedMessage; by: string }) => {
    const live = [...ledgers.entries()].filter(([name]) => !killedNames.has(name));
    const [name, ledger] = live.find(([candidate]) => candidate === entry.by) ?? live[0] ?? [];
    if (!ledger || !name || !pending.includes(entry) || entry.queued.message.channel !== 'mail') return;
    pending.splice(pending.indexOf(entry), 1);
    const { mail } = entry.queued.message;
    inbox.push({ to: mail.to, subject: mail.subject, html: mail.html ?? '', by: name });
    await ledger.settled(entry.queued, 'sent');
  };
  const killedNames = new Set<string>();

  /** `target` whose every method rejects once `isKilled()`: a process that is gone writes nothing more. */
  function killable<T extends object>(target: T, isKilled: () => boolean): T {
    return new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (isKilled() ? Promise.reject(new Error('killed')) : (value as (...rest: unknown[]) => unknown).apply(object, args));
      },
    });
  }

  function replica(name: string): Replica {
    const logs = captureLogs();
    const isKilled = () => killedNames.has(name);
    const opened = options.stores(name);
    const store = killable(opened.store, isKilled);
    const campaigns = killable(opened.campaigns, isKilled);
    const lists = options.lists ?? LISTS;
    const listOf = (key: string) => lists.find((list) => list.log.path === key);
    const ledger = createCampaignLedger({ store: campaigns, listOf, isSubscribed: async () => true, timers });
    ledgers.set(name, ledger);
    const feeder = createCampaignFeeder({
      store: timers.track(campaigns),
      ledger,
      enqueue: async (messages) => {
        if (isKilled()) throw new Error('killed');
        for (const message of messages) {
          const entry = { queued: { id: `mail-${enqueued}`, createdAt: timers.now(), message }, by: name };
          enqueued += 1;
          pending.push(entry);
          void nextTurn().then(() => deliverOne(entry));
        }
      },
      pendingMessages: async () => pending.map((entry) => entry.queued),
      listOf,
      mailFor: async (_form, email, body) => ({ from: 'news@example.com', to: email, subject: body.subject, text: body.text, html: body.html, autoSubmitted: 'auto-generated' }),
      sendPerMinute: options.sendPerMinute ?? 0,
      clock: timers.now,
      timers,
      logger: logs.logger,
      // Long: the tests move fake time by days; a new campaign wakes the feeder at once.
      pollIntervalMs: 300_000,
      isHeld: (campaign) => store.isCampaignPaused(campaign),
    });
    const automations = createPostAutomations({
      automations: options.automations,
      lists,
      segments: options.segments ?? [],
      posts: postsPort,
      subscribers: async (log) => (typeof options.subscribers === 'function' ? options.subscribers(log.path) : options.subscribers),
      store: timers.track(store),
      campaigns: timers.track(campaigns),
      site: SITE,
      timeZone: options.timeZone ?? 'UTC',
      clock: timers.now,
      timers,
      logger: logs.logger,
      onCampaign: () => feeder.wake(),
      resumeCampaign: (id, by) => feeder.resume(id, by),
    });
    const self: Replica = {
      automations,
      feeder,
      logs,
      async kill() {
        killedNames.add(name);
        await automations.stop();
        await feeder.stop();
        // The mails it queued stay in the shared queue: a live replica delivers them.
        for (const entry of pending) if (entry.by === name) void nextTurn().then(() => deliverOne(entry));
      },
    };
    feeder.start();
    replicas.push(self);
    return self;
  }

  /** How many mails each address got. */
  const mailsPerAddress = () => {
    const counts = new Map<string, number>();
    for (const { to } of inbox) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };

  return {
    posts,
    inbox,
    replica,
    mailsPerAddress,
    /** Lets the shared queue deliver what waits in it (after replicas were killed). */
    deliverWaiting: () => Promise.all([...pending].map((entry) => deliverOne(entry))),
    async close() {
      for (const open of replicas.splice(0)) await open.kill();
    },
  };
}

/** `count` confirmed subscribers. */
export function subscribersOf(count: number): Subscriber[] {
  return Array.from({ length: count }, (_, index) => ({ email: `reader${index}@example.org`, subscribed_at: '2025-12-01T00:00:00.000Z' }));
}
