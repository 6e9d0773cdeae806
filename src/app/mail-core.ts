// The mail core: everything that sends mail, built before any HTTP service (docs/delivery.md, docs/newsletter.md,
// docs/bounces.md). Built in one order, each part from the parts before it: the bounces (the suppression policy,
// which needs only stores, and the guard every mail passes), the campaign ledger (what the queue asks of
// campaigns), the queue worker, the newsletter that queues its mails, and the campaign feeder that queues a
// campaign's mails at its pace; then how an accepted submission is delivered: one delivery into the queue, or sent
// at once without it. The forms service, /admin and the
// dashboard are built on it, and every feature that mails goes through it.
import type { Backend } from '../adapters/backend.js';
import { createBounces, type Bounces } from '../bounces/bounces.js';
import { guardDispatch } from '../bounces/guard.js';
import type { BouncesConfig, FormConfig, NewsletterForm, NewsletterList } from '../config/config.js';
import { formListsOf } from '../newsletter/lists.js';
import { createDelivery } from '../forms/delivery.js';
import type { FormsReadings, FormsSettings, SubmissionDelivery } from '../forms/forms-service.js';
import { createMetrics, type Metrics } from '../forms/metrics.js';
import { resolveSiteName } from '../forms/notifications.js';
import { createQueueReport } from '../forms/queue-report.js';
import { createQueueSink } from '../forms/queue-sink.js';
import { createSendNowSink } from '../forms/send-now-sink.js';
import type { Logger } from '../kit/log.js';
import { createCampaignFeeder, type CampaignFeeder } from '../newsletter/campaigns/campaign-feeder.js';
import { createCampaignLedger } from '../newsletter/campaigns/campaign-ledger.js';
import { createRecipientMail } from '../newsletter/campaigns/recipient-mail.js';
import { createNewsletter, type Newsletter, type NewsletterDeps } from '../newsletter/index.js';
import type { ChatNotifier, Clock, Mailer, RandomBytes, Timers, WebhookNotifier } from '../ports.js';
import { createDispatch, type DispatchChannels } from '../queue/dispatch.js';
import { campaignLane, campaignLaneOf, type OutgoingMessage } from '../queue/outgoing.js';
import type { RetryPolicy } from '../queue/retry-policy.js';
import { createQueueWorker, type DeliveryQueue } from '../queue/worker.js';

/** In-flight sends of the queue get this long when the service stops; what is not sent stays queued. */
const QUEUE_STOP_GRACE_MS = 5_000;

/** How the queue runs; tests shorten the retries. */
export interface QueueTuning {
  policy: RetryPolicy;
  /** A number in [0, 1) for the retry jitter; Math.random unless given. */
  random?(): number;
  pollIntervalMs?: number;
}

/** What the mail core is built from. */
export interface MailCoreDeps {
  /** Without `suppressions` no mail is checked or tagged (a test's partial backend). */
  backend: Pick<Backend, 'queue' | 'campaigns' | 'newsletter'> & Partial<Pick<Backend, 'suppressions' | 'automations'>>;
  mailer: Mailer;
  /** The chat notifier of each form with [forms.telegram], by form path. */
  chatNotifiers: ReadonlyMap<string, ChatNotifier>;
  /** The webhook notifier of each form with [forms.webhook], by form path. */
  webhookNotifiers: ReadonlyMap<string, WebhookNotifier>;
  /** The blog's signed activities (docs/activitypub.md "Delivery"), with `[blog.activitypub]`. */
  deliverActivity?: DispatchChannels['deliverActivity'];
  /** How a queued webmention is sent, while the blog's comments are on (docs/comments.md "Sending"). */
  webmentions?: DispatchChannels['webmentions'];
  logger: Logger;
  /** The time records carry. */
  clock: Clock;
  /** What waits or repeats: the queue's retries and polls, a campaign's pace, the purges. */
  timers: Timers;
  randomBytes: RandomBytes;
  /** With `[mail] queue`: how the queue retries. */
  queue?: QueueTuning;
  /** The newsletter double opt-in; a test may hand in a fake. */
  createNewsletter?: (deps: NewsletterDeps) => Promise<Newsletter>;
  /** [mail.bounces], and whether an address is the owner's (docs/bounces.md "Suppression"). */
  bounces?: { settings: BouncesConfig; isOwnerAddress(address: string): Promise<boolean> };
}

/** The running mail core. */
export interface MailCore {
  metrics: Metrics;
  newsletter: Newsletter;
  /** How an accepted submission's mails and notifications leave. */
  deliver: SubmissionDelivery;
  /** The outgoing-message queue, with `[mail] queue`. */
  queue?: DeliveryQueue;
  /** Feeds campaigns to the queue (so only with it). */
  campaigns?: CampaignFeeder;
  /** The suppression policy (its sink takes the intakes' reports) and the guard every mail passes. */
  bounces?: Bounces;
  /** What the dashboard shows of the counters and the queue. */
  readings: FormsReadings;
  /** Stops the campaigns, the bounces' purge, the newsletter and the queue (in-flight sends get a grace), in that order. */
  close(): Promise<void>;
}

/** Builds and starts the mail core, each part after those it needs. */
export async function createMailCore(settings: FormsSettings, deps: MailCoreDeps): Promise<MailCore> {
  const { forms } = settings;
  const { logger, clock, timers, mailer, backend } = deps;
  const metrics = createMetrics(forms.map((form) => form.path));
  const siteNameFor = (form: FormConfig) => resolveSiteName(settings.siteTitle, form, settings.server.public_url);
  const newsletterForms = forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  const newsletterFormsByPath = new Map(newsletterForms.map((form) => [form.path, form] as const));
  // Campaigns go to any list, those of [[newsletter.lists]] without a form too, named by their log's key.
  const campaignLists = new Map((settings.newsletterLists ?? formListsOf(newsletterForms)).map((list) => [list.log.path, list] as const));
  /** The site a list's mails name: that of its form, or of the first form for a list without one. */
  const siteNameOfList = (list: NewsletterList) => {
    const form = newsletterFormsByPath.get(list.form ?? '') ?? forms[0];
    return form ? siteNameFor(form) : (settings.siteTitle ?? (settings.server.public_url ? new URL(settings.server.public_url).host : 'our website'));
  };

  // 1. The bounces: the policy over the suppression list and the newsletter's records, the guard every mail passes.
  const bounces =
    backend.suppressions && deps.bounces
      ? createBounces({
          settings: deps.bounces.settings,
          store: backend.suppressions,
          subscribers: backend.newsletter,
          secret: () => backend.newsletter.secret(),
          isOwnerAddress: deps.bounces.isOwnerAddress,
          clock,
          timers,
          randomBytes: deps.randomBytes,
          logger,
        })
      : undefined;
  const guard = bounces?.guard;
  /** The messages of `messages` the suppression list lets be queued. */
  const queueable = async (messages: readonly OutgoingMessage[]) => (guard ? guard.filterQueued(messages) : messages);
  const plainDispatch = createDispatch({ mailer, chatNotifiers: deps.chatNotifiers, webhookNotifiers: deps.webhookNotifiers, deliverActivity: deps.deliverActivity, webmentions: deps.webmentions });
  const dispatch = guard ? guardDispatch(plainDispatch, guard) : plainDispatch;
  /** Sends one message now, without the queue: tried once, so no id (a webhook event's) has to outlive it. */
  const sendNow = (message: OutgoingMessage) => dispatch({ id: `msg_${deps.randomBytes(16).toString('hex')}`, createdAt: clock(), message });

  /** Whether a welcome mail's ledger claim is still its pair's: settled by the first try that asks. */
  const isClaimCurrent = async (message: OutgoingMessage) => message.channel !== 'mail' || !message.automation || backend.newsletter.settleAutomationClaim(message.automation);

  // 2. The campaign ledger: which queued campaign mail is still wanted, and the journal of each one settled.
  const tuning = deps.queue;
  const ledger = tuning
    ? createCampaignLedger({
        store: backend.campaigns,
        listOf: (key) => campaignLists.get(key),
        isSubscribed: (log, email) => backend.newsletter.isSubscribed(log, email),
        isHeldBack: guard && ((email, form) => guard.isHeldBack(email, { kind: 'newsletter', form })),
        timers,
      })
    : undefined;

  // 3. The queue worker, asking the ledger about campaign mails.
  const queue =
    tuning &&
    ledger &&
    createQueueWorker({
      store: backend.queue,
      // A campaign mail to an address that left the list while it waited is not sent (docs/newsletter.md "Sending a post"),
      // nor a welcome whose claim was renewed after a kill (docs/newsletter.md "Exactly once, across crashes and replicas").
      dispatch: async (queued) => ((await ledger.isWanted(queued.message)) && (await isClaimCurrent(queued.message)) ? dispatch(queued) : 'skipped'),
      settled: (queued, outcome) => ledger.settled(queued, outcome),
      // A campaign's mails go one at a time: a crash finds at most one of them in flight (docs/newsletter.md "Sending a post").
      laneOf: campaignLaneOf,
      report: createQueueReport(metrics, logger, settings.mailServer),
      policy: tuning.policy,
      timer: timers,
      random: tuning.random ?? Math.random,
      pollIntervalMs: tuning.pollIntervalMs,
    });

  // 4. The newsletter, its mails through the queue, or sent at once without it.
  const newsletter = await (deps.createNewsletter ?? createNewsletter)({
    forms: newsletterForms,
    lists: settings.newsletterLists,
    preferencesUrl: settings.preferencesUrl,
    siteUrl: settings.siteUrl,
    automations: settings.newsletterAutomations,
    from: settings.from,
    siteNameFor,
    sendMail: queue
      ? async (formPath, kind, mail, claim) => {
          const messages = await queueable([{ channel: 'mail', form: formPath, kind, mail, ...(claim ? { automation: claim } : {}) }]);
          if (messages.length === 0) return 'suppressed';
          await queue.enqueue(messages);
          return 'queued';
        }
      : async (formPath, kind, mail) => ((await sendNow({ channel: 'mail', form: formPath, kind, mail })) === 'skipped' ? 'suppressed' : 'sent'),
    store: backend.newsletter,
    metrics,
    logger,
    clock,
    timers,
    randomBytes: deps.randomBytes,
    // Without the queue a confirmation mail that cannot be sent is told: 500 send_failed, and the signup is undone.
    mailBeforeAnswer: !queue,
  });

  // 5. The campaign feeder, queueing each campaign's mails at its pace.
  const feeder =
    queue &&
    ledger &&
    createCampaignFeeder({
      store: backend.campaigns,
      ledger,
      enqueue: (messages) => queue.enqueue(messages),
      pendingMessages: (campaign) => queue.pendingMessages(campaignLane(campaign)),
      listOf: (key) => campaignLists.get(key),
      bounceTally: bounces && backend.suppressions ? (campaign) => backend.suppressions!.campaignTally(campaign) : undefined,
      // A paused automation stops its campaigns at once, on every replica (docs/newsletter.md "Automations").
      isHeld: backend.automations && settings.newsletterAutomations?.some((automation) => automation.type !== 'welcome') ? (campaign) => backend.automations!.isCampaignPaused(campaign) : undefined,
      mailFor: async (list, email, body, request) =>
        createRecipientMail({
          from: settings.from,
          to: email,
          body,
          siteTitle: siteNameOfList(list),
          postUrl: request.post_url,
          list: await newsletter.listHeadersOf(list, email),
          preferencesUrl: await newsletter.preferences.linkFor(email),
        }),
      sendPerMinute: settings.sendPerMinute ?? 60,
      clock,
      timers,
      logger,
    });

  await queue?.start();
  feeder?.start();
  bounces?.start();
  // A submission's messages, into the queue, or sent now through the same dispatch the queue uses.
  const sink = queue
    ? createQueueSink({ enqueue: async (messages) => queue.enqueue(await queueable(messages)), metrics, logger })
    : createSendNowSink({ send: sendNow, metrics, logger });
  const deliver: SubmissionDelivery = createDelivery({ sink, from: settings.from, siteNameFor });
  return {
    metrics,
    newsletter,
    deliver,
    queue,
    campaigns: feeder,
    bounces,
    readings: { snapshot: () => metrics.snapshot(), queueCounts: queue && (() => queue.counts()) },
    async close() {
      await feeder?.stop();
      await bounces?.close();
      await newsletter.close();
      await queue?.stop(QUEUE_STOP_GRACE_MS);
    },
  };
}
