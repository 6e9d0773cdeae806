// What the forms stand on, built before any HTTP service (docs/delivery.md, docs/newsletter.md): the counters, the
// outgoing-message queue over the backend's store, the newsletter over the backend's records, the campaign runner,
// and how an accepted submission is delivered (through the queue, or at once without it). The forms service, /admin
// and the dashboard are then built on these.
import type { Backend } from '../adapters/backend.js';
import { createCampaignRunner, type CampaignRunner } from '../newsletter/campaigns/campaign-runner.js';
import { createRecipientMail } from '../newsletter/campaigns/recipient-mail.js';
import type { FormConfig, NewsletterForm } from '../config/config.js';
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
import { campaignLane, campaignLaneOf } from '../queue/outgoing.js';
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
  backend: Pick<Backend, 'queue' | 'campaigns' | 'newsletter'>;
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
  const dispatch = createDispatch({ mailer, chatNotifiers: deps.chatNotifiers, webhookNotifiers: deps.webhookNotifiers });
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
    forms: forms.filter((form): form is NewsletterForm => form.type === 'newsletter'),
    from: settings.from,
    siteNameFor,
    sendMail: queue
      ? async (formPath, kind, mail) => {
          await queue.enqueue([{ channel: 'mail', form: formPath, kind, mail }]);
          return 'queued';
        }
      : sendMailNow(mailer),
    store: backend.newsletter,
    metrics,
    logger,
    clock,
    randomBytes: deps.randomBytes,
  });
  if (queue) {
    const newsletterForms = new Map(forms.flatMap((form) => (form.type === 'newsletter' ? [[form.path, form] as const] : [])));
    runner = createCampaignRunner({
      store: backend.campaigns,
      enqueue: (messages) => queue.enqueue(messages),
      pendingMessages: (campaign) => queue.pendingMessages(campaignLane(campaign)),
      formOf: (path) => newsletterForms.get(path),
      isSubscribed: (form, email) => newsletter.isSubscribed(form, email),
      mailFor: async (form, email, body, request) =>
        createRecipientMail({ from: settings.from, to: email, body, siteTitle: siteNameFor(form), postUrl: request.post_url, list: await newsletter.listHeadersFor(form, email) }),
      sendPerMinute: settings.sendPerMinute ?? 60,
      clock,
      logger,
    });
  }
  await queue?.start();
  runner?.start();
  const deliver: SubmissionDelivery = queue
    ? createQueuedDelivery({ enqueue: (messages) => queue.enqueue(messages), metrics, logger, from: settings.from, siteNameFor })
    : createDelivery({
        mailer,
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
    readings: { snapshot: () => metrics.snapshot(), queueCounts: queue && (() => queue.counts()) },
    async close() {
      await runner?.stop();
      await newsletter.close();
      await queue?.stop(QUEUE_STOP_GRACE_MS);
    },
  };
}
