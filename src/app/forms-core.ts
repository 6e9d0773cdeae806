// What the forms stand on, built before any HTTP service (docs/delivery.md, docs/newsletter.md): the counters, the
// outgoing-message queue over the backend's store, the newsletter over the backend's records, the campaign runner,
// and how an accepted submission is delivered (through the queue, or at once without it). The forms service, /admin
// and the dashboard are then built on these. Every mail passes the suppression list on its way out (docs/bounces.md
// "Suppression"): checked when queued and again when sent, and given its tagged envelope sender.
import type { Backend } from '../adapters/backend.js';
import { createBounces, type Bounces } from '../bounces/bounces.js';
import { guardDispatch, guardMailer } from '../bounces/guard.js';
import { createCampaignRunner, type CampaignRunner } from '../newsletter/campaigns/campaign-runner.js';
import { createRecipientMail } from '../newsletter/campaigns/recipient-mail.js';
import type { BouncesConfig, FormConfig, NewsletterForm } from '../config/config.js';
import { createDelivery, sendMailNow } from '../forms/delivery.js';
import type { FormsReadings, FormsSettings, SubmissionDelivery } from '../forms/forms-service.js';
import { createMetrics, type Metrics } from '../forms/metrics.js';
import { createNewsletter, type Newsletter, type NewsletterDeps } from '../newsletter/index.js';
import { resolveSiteName } from '../forms/notifications.js';
import { createQueuedDelivery } from '../forms/queued-delivery.js';
import { createQueueReport } from '../forms/queue-report.js';
import type { Logger } from '../kit/log.js';
import type { ChatNotifier, Clock, Mailer, RandomBytes, WebhookNotifier } from '../ports.js';
import { createDispatch } from '../queue/dispatch.js';
import { campaignLane, campaignLaneOf, type OutgoingMessage } from '../queue/outgoing.js';
import type { RetryPolicy } from '../queue/retry-policy.js';
import { createQueueWorker, realTimer, type DeliveryQueue, type QueueTimer } from '../queue/worker.js';

/** In-flight sends of the queue get this long when the service stops; what is not sent stays queued. */
const QUEUE_STOP_GRACE_MS = 5_000;

/** How the queue runs; tests shorten the retries and run it on fake time. */
export interface QueueTuning {
  policy: RetryPolicy;
  timer?: QueueTimer;
  /** A number in [0, 1) for the retry jitter; Math.random unless given. */
  random?(): number;
  pollIntervalMs?: number;
}

/** What the forms core is built from. */
export interface FormsCoreDeps {
  /** Without `suppressions` no mail is checked or tagged (a test's partial backend). */
  backend: Pick<Backend, 'queue' | 'campaigns' | 'newsletter'> & Partial<Pick<Backend, 'suppressions'>>;
  mailer: Mailer;
  /** The chat notifier of each form with [forms.telegram], by form path. */
  chatNotifiers: ReadonlyMap<string, ChatNotifier>;
  /** The webhook notifier of each form with [forms.webhook], by form path. */
  webhookNotifiers: ReadonlyMap<string, WebhookNotifier>;
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  /** With `[mail] queue`: how the queue retries and keeps time. */
  queue?: QueueTuning;
  /** The newsletter double opt-in; a test may hand in a fake. */
  createNewsletter?: (deps: NewsletterDeps) => Promise<Newsletter>;
  /** [mail.bounces], and whether an address is the owner's (docs/bounces.md "Suppression"). */
  bounces?: { settings: BouncesConfig; isOwnerAddress(address: string): Promise<boolean> };
}

/** The running core of the forms. */
export interface FormsCore {
  metrics: Metrics;
  newsletter: Newsletter;
  /** How an accepted submission's mails and notifications leave. */
  deliver: SubmissionDelivery;
  /** The outgoing-message queue, with `[mail] queue`. */
  queue?: DeliveryQueue;
  /** Sends campaigns through the queue (so only with it). */
  campaigns?: CampaignRunner;
  /** The suppression policy (its sink takes the intakes' reports) and the guard every mail passes. */
  bounces?: Bounces;
  /** What the dashboard shows of the counters and the queue. */
  readings: FormsReadings;
  /** Stops the campaigns, the newsletter and the queue (in-flight sends get a grace), in that order. */
  close(): Promise<void>;
}

/** Builds and starts the forms core: the queue first, then the newsletter that queues its mails, then campaigns. */
export async function createFormsCore(settings: FormsSettings, deps: FormsCoreDeps): Promise<FormsCore> {
  const { forms } = settings;
  const { logger, clock, mailer, backend } = deps;
  const metrics = createMetrics(forms.map((form) => form.path));
  const siteNameFor = (form: FormConfig) => resolveSiteName(settings.siteTitle, form, settings.server.public_url);
  // Set once the newsletter exists: a complaint takes its address off every list (only reports after start use it).
  let newsletterOfCore: Newsletter | undefined;
  const newsletterForms = forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  const bounces =
    backend.suppressions && deps.bounces
      ? createBounces({
          settings: deps.bounces.settings,
          store: backend.suppressions,
          secret: () => backend.newsletter.secret(),
          isOwnerAddress: deps.bounces.isOwnerAddress,
          async unsubscribeEverywhere(address) {
            for (const form of newsletterForms) {
              if ((await newsletterOfCore?.remove(form, address, 'complaint')) === 'not_saved') throw new Error(`the unsubscription from ${form.path} could not be saved`);
            }
          },
          clock,
          randomBytes: deps.randomBytes,
          logger,
        })
      : undefined;
  const guard = bounces?.guard;
  /** The messages of `messages` the suppression list lets be queued. */
  const queueable = async (messages: readonly OutgoingMessage[]) => (guard ? guard.filterQueued(messages) : messages);
  const plainDispatch = createDispatch({ mailer, chatNotifiers: deps.chatNotifiers, webhookNotifiers: deps.webhookNotifiers });
  const dispatch = guard ? guardDispatch(plainDispatch, guard) : plainDispatch;
  // Set once the runner exists: a campaign mail queued before (after a restart) waits until the queue's first claim.
  let runner: CampaignRunner | undefined;
  const tuning = deps.queue;
  const queue =
    tuning &&
    createQueueWorker({
      store: backend.queue,
      // A campaign mail to an address that left the list while it waited is not sent (docs/newsletter.md "Sending a post").
      dispatch: async (queued) => (runner && !(await runner.isWanted(queued.message)) ? 'skipped' : dispatch(queued)),
      settled: async (queued, outcome) => runner?.settled(queued, outcome),
      // A campaign's mails go one at a time: a crash finds at most one of them in flight (docs/newsletter.md "Sending a post").
      laneOf: campaignLaneOf,
      report: createQueueReport(metrics, logger, settings.mailServer),
      policy: tuning.policy,
      timer: tuning.timer ?? realTimer,
      random: tuning.random ?? Math.random,
      pollIntervalMs: tuning.pollIntervalMs,
    });
  const newsletter = await (deps.createNewsletter ?? createNewsletter)({
    forms: newsletterForms,
    from: settings.from,
    siteNameFor,
    sendMail: queue
      ? async (formPath, kind, mail) => {
          const messages = await queueable([{ channel: 'mail', form: formPath, kind, mail }]);
          if (messages.length === 0) return 'suppressed';
          await queue.enqueue(messages);
          return 'queued';
        }
      : guard
        ? (formPath, kind, mail) => guard.sendNow(mailer, mail, { kind, form: formPath })
        : sendMailNow(mailer),
    store: backend.newsletter,
    metrics,
    logger,
    clock,
    randomBytes: deps.randomBytes,
  });
  newsletterOfCore = newsletter;
  if (queue) {
    const newsletterFormsByPath = new Map(newsletterForms.map((form) => [form.path, form] as const));
    runner = createCampaignRunner({
      store: backend.campaigns,
      enqueue: (messages) => queue.enqueue(messages),
      pendingMessages: (campaign) => queue.pendingMessages(campaignLane(campaign)),
      formOf: (path) => newsletterFormsByPath.get(path),
      // A suppressed address is skipped like one that left the list, when queued and again when sent.
      isSubscribed: async (form, email) => (await newsletter.isSubscribed(form, email)) && !(await guard?.isHeldBack(email, { kind: 'newsletter', form: form.path })),
      bounceTally: bounces && backend.suppressions ? (campaign) => backend.suppressions!.campaignTally(campaign) : undefined,
      mailFor: async (form, email, body, request) =>
        createRecipientMail({ from: settings.from, to: email, body, siteTitle: siteNameFor(form), postUrl: request.post_url, list: await newsletter.listHeadersFor(form, email) }),
      sendPerMinute: settings.sendPerMinute ?? 60,
      clock,
      logger,
    });
  }
  await queue?.start();
  runner?.start();
  bounces?.start();
  // Without the queue the only mails of a submission are the owner mail (to a form's `to`) and the receipt.
  const ownerTos = new Set(forms.map((form) => form.to));
  const deliver: SubmissionDelivery = queue
    ? createQueuedDelivery({ enqueue: async (messages) => queue.enqueue(await queueable(messages)), metrics, logger, from: settings.from, siteNameFor })
    : createDelivery({
        mailer: guard ? guardMailer(mailer, guard, (mail) => ({ kind: ownerTos.has(mail.to) ? 'owner' : 'receipt', form: '' })) : mailer,
        metrics,
        logger,
        from: settings.from,
        chatNotifierFor: (form) => deps.chatNotifiers.get(form.path),
        webhookNotifierFor: (form) => deps.webhookNotifiers.get(form.path),
        // Without the queue every delivery is tried once, so no id has to outlive it.
        createEventId: () => `msg_${deps.randomBytes(16).toString('hex')}`,
        siteNameFor,
      });
  return {
    metrics,
    newsletter,
    deliver,
    queue,
    campaigns: runner,
    bounces,
    readings: { snapshot: () => metrics.snapshot(), queueCounts: queue && (() => queue.counts()) },
    async close() {
      await runner?.stop();
      await bounces?.close();
      await newsletter.close();
      await queue?.stop(QUEUE_STOP_GRACE_MS);
    },
  };
}
