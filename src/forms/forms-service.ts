// The forms service (docs/forms-api.md): its rules, flows and routes, built from its own settings and the
// adapters the composition root hands in (mailer, chat and webhook notifiers, line appender, clock, randomness,
// logs).
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { FormConfig, NewsletterForm, ServerConfig } from '../config/config.js';
import { createFrontDoor } from '../http/front-door.js';
import type { HttpService } from '../http/http-service.js';
import type { RequestLog } from '../http/request-log.js';
import type { Route } from '../http/route-table.js';
import type { Logger } from '../log.js';
import { safeReason } from '../safe-reason.js';
import { createDelivery } from './delivery.js';
import { createFormRoutes, formsDoorAnswers } from './http/form-routes.js';
import { createMetrics, type MetricsSnapshot } from './metrics.js';
import { createNewsletter, type Newsletter, type NewsletterDeps, type NewsletterStore } from './newsletter/index.js';
import { resolveSiteName } from './notifications.js';
import type { AppendLine, ArchiveStore, ChatNotifier, Clock, Mailer, RandomBytes, WebhookNotifier } from '../ports.js';
import { createQueuedDelivery } from './queued-delivery.js';
import { createQueueReport } from './queue-report.js';
import { loadFormRateLimits, type FormRateLimits } from './rate-limits.js';
import { createSubmitFlow } from './submit-flow.js';
import { campaignLane, campaignLaneOf, type Dispatch } from '../queue/outgoing.js';
import { createClaimingQueueWorker } from '../queue/claiming-worker.js';
import { createQueueWorker, type MailQueue, type QueueWorkerDeps } from '../queue/queue-worker.js';
import { createCampaignRunner, type CampaignRunner } from '../campaigns/campaign-runner.js';
import type { CampaignStore } from '../campaigns/campaign-store.js';
import { createRecipientMail } from '../campaigns/recipient-mail.js';
import type { RetryPolicy } from '../queue/retry-policy.js';
import { isSharedQueueStore, type SharedQueueStore } from '../queue/shared-store.js';
import type { QueueStore } from '../queue/store.js';

/** What the forms service is configured with. */
export interface FormsSettings {
  dataDir: string;
  server: ServerConfig;
  forms: readonly FormConfig[];
  /** `mail.from`. */
  from: string;
  /** `[site] title`, when there is one: the name receipts and confirmation mails give the site. */
  siteTitle: string | undefined;
  /** `[site] base_url`: where the newsletter pages link back to when a form has no allowed origin. */
  siteUrl?: string;
  /** "host:port" of the SMTP server, named in the log line of a failed send; undefined with the file transport. */
  mailServer?: string;
  /** `[mail] send_per_minute`: campaign mails handed to the queue per minute, 0 for no limit. */
  sendPerMinute?: number;
}

/** The mail queue's parts (docs/delivery.md); absent with `[mail] queue = false`. */
export interface QueueAdapters {
  /** The files of data_dir/queue (this process alone), or a store replicas share (PostgreSQL). */
  store: QueueStore | SharedQueueStore;
  /** Sends one message through its channel now. */
  dispatch: Dispatch;
  policy: RetryPolicy;
  /** The queue's time: it waits for retries with real timers, so it runs on real time even where a test fixes the service's clock. */
  clock: Clock;
  /** A number in [0, 1) for the retry jitter. */
  random(): number;
  rescanIntervalMs?: number;
  /** With a shared store: how often due messages are claimed (other replicas' new ones, retries, expired leases). */
  pollIntervalMs?: number;
}

/** The queue's worker for its store: the files of this process, or claims on a store replicas share. */
function createMailQueue(queue: QueueAdapters, parts: Pick<QueueWorkerDeps, 'dispatch' | 'settled' | 'laneOf' | 'report'>): MailQueue {
  const { store, ...rest } = queue;
  return isSharedQueueStore(store) ? createClaimingQueueWorker({ ...rest, ...parts, store }) : createQueueWorker({ ...rest, ...parts, store });
}

/** In-flight sends of the queue get this long when the service stops; what is not sent stays queued. */
const QUEUE_STOP_GRACE_MS = 5_000;

/** `sendMail` for the newsletter without the queue: the mail goes out now. */
export function sendMailNow(mailer: Mailer): NewsletterDeps['sendMail'] {
  return async (_formPath, _kind, mail) => {
    await mailer.send(mail);
    return 'sent';
  };
}

/** What the running forms service counts, read in the same process (the dashboard of /admin). */
export interface FormsReadings {
  snapshot(): MetricsSnapshot;
  /** The mail queue's pending and failed messages; undefined without `[mail] queue`. */
  queueCounts?(): { pending: number; failed: number };
}

/** A shared store's connection as the service sees it. */
export interface SharedState {
  /** The parts that cannot be reached now ("postgres"). */
  unavailableParts(): string[];
}

/** What the forms service works through. */
export interface FormsAdapters {
  logger: Logger;
  requestLog: RequestLog;
  clock: Clock;
  randomBytes: RandomBytes;
  mailer: Mailer;
  /** The chat notifier of each form with [forms.telegram], by form path. */
  chatNotifiers: ReadonlyMap<string, ChatNotifier>;
  /** The webhook notifier of each form with [forms.webhook], by form path. */
  webhookNotifiers: ReadonlyMap<string, WebhookNotifier>;
  appendLine: AppendLine;
  /** Where form archives are kept: data_dir/<archive> or PostgreSQL (`[state] backend`). */
  archives: ArchiveStore;
  /** Where the newsletter keeps its records when not in data_dir (PostgreSQL, `[state] backend`). */
  newsletterStore?: NewsletterStore;
  /** The shared records (PostgreSQL) the stores work through, if any: named by /health while unreachable (the composition root closes them). */
  sharedState?: SharedState;
  /** The mail queue, when `[mail] queue` is on. */
  queue?: QueueAdapters;
  /** The campaigns in data_dir/campaigns, sent through the queue (so only with it). */
  campaigns?: CampaignStore;
  /** Rate limits shared by replicas (Redis, `[rate_limit] backend = "redis"`); in memory with a snapshot file unless given. */
  rateLimits?: FormRateLimits;
  /** Told once the campaign runner exists: /admin wakes it when it made a campaign. */
  onCampaignRunner?(runner: CampaignRunner): void;
  /** Told once the newsletter runs: /admin's "Remove" goes through it, so its list in memory stays right. */
  onNewsletter?(newsletter: Newsletter): void;
  /** Told once the counters exist: /admin's dashboard shows what /metrics shows, and the queue's sizes. */
  onMetrics?(readings: FormsReadings): void;
  /** The client address of a request (docs/configuration.md "trust_proxy_headers"). */
  clientAddressOf(request: IncomingMessage): string;
  /** The bucket a client address counts against. */
  rateLimitKey(address: string): string;
  /** The newsletter double opt-in; tests may hand in a fake. */
  createNewsletter?: (deps: NewsletterDeps) => Promise<Newsletter>;
  /** Routes served beside the forms' own on its listener (/admin when there is no [blog], from the composition root). */
  extraRoutes?: readonly Route[];
}

/** Makes data_dir, loads the newsletter journals and the rate-limit snapshot, then builds the routes behind one front door. */
export async function createFormsService(settings: FormsSettings, adapters: FormsAdapters): Promise<HttpService> {
  const { dataDir, server, forms } = settings;
  const { logger, clock, mailer } = adapters;
  // Archives and the rate-limit snapshot are written there; a first start may find no folder yet.
  await mkdir(dataDir, { recursive: true });
  const metrics = createMetrics(forms.map((form) => form.path));
  const siteNameFor = (form: FormConfig) => resolveSiteName(settings.siteTitle, form, server.public_url);
  let runner: CampaignRunner | undefined;
  const queue = adapters.queue && createMailQueue(adapters.queue, {
    // A campaign mail to an address that left the list while it waited is not sent (contract section 7).
    dispatch: async (queued) => (runner && !(await runner.isWanted(queued.message)) ? 'skipped' : adapters.queue!.dispatch(queued)),
    settled: async (queued, outcome) => runner?.settled(queued, outcome),
    // A campaign's mails go one at a time: a crash finds at most one of them in flight (contract section 7).
    laneOf: campaignLaneOf,
    report: createQueueReport(metrics, logger, settings.mailServer),
  });
  const newsletter = await (adapters.createNewsletter ?? createNewsletter)({
    dataDir,
    forms: forms.filter((form): form is NewsletterForm => form.type === 'newsletter'),
    from: settings.from,
    siteNameFor,
    sendMail: queue
      ? async (formPath, kind, mail) => {
          await queue.enqueue([{ channel: 'mail', form: formPath, kind, mail }]);
          return 'queued';
        }
      : sendMailNow(mailer),
    appendLine: adapters.appendLine,
    store: adapters.newsletterStore,
    metrics,
    logger,
    clock,
    randomBytes: adapters.randomBytes,
  });
  adapters.onNewsletter?.(newsletter);
  adapters.onMetrics?.({ snapshot: () => metrics.snapshot(), queueCounts: queue && (() => queue.counts()) });
  if (queue && adapters.campaigns) {
    const newsletterForms = new Map(forms.flatMap((form) => (form.type === 'newsletter' ? [[form.path, form] as const] : [])));
    runner = createCampaignRunner({
      store: adapters.campaigns,
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
    adapters.onCampaignRunner?.(runner);
  }
  await queue?.start();
  runner?.start();
  const rateLimits = adapters.rateLimits ?? (await loadFormRateLimits(forms, dataDir, clock(), logger));
  const deliver = queue
    ? createQueuedDelivery({ enqueue: (messages) => queue.enqueue(messages), metrics, logger, from: settings.from, siteNameFor })
    : createDelivery({
        mailer,
        metrics,
        logger,
        from: settings.from,
        chatNotifierFor: (form) => adapters.chatNotifiers.get(form.path),
        webhookNotifierFor: (form) => adapters.webhookNotifiers.get(form.path),
        // Without the queue every delivery is tried once, so no id has to outlive it.
        createEventId: () => `msg_${adapters.randomBytes(16).toString('hex')}`,
        siteNameFor,
      });
  const routes = createFormRoutes({
    forms,
    metrics,
    newsletter,
    formCount: forms.length,
    queueCounts: queue && (() => queue.counts()),
    unavailableParts: () => [...(adapters.sharedState?.unavailableParts() ?? []), ...(rateLimits.unavailableParts?.() ?? [])],
    metricsToken: server.metrics_token,
    siteOf: (form) => ({ name: siteNameFor(form), url: form.allowed_origins[0] ?? settings.siteUrl }),
    submitFlowOf: (form) =>
      createSubmitFlow(form, {
        metrics,
        logger,
        clock,
        limiter: rateLimits.limiterFor(form.path),
        rateLimitKey: adapters.rateLimitKey,
        maxBodyBytes: server.max_body_bytes,
        newsletter,
        archives: adapters.archives,
        deliver,
      }),
  });

  return {
    name: 'forms',
    listen: server.listen,
    handle: createFrontDoor({ routes: [...(adapters.extraRoutes ?? []), ...routes], answers: formsDoorAnswers, clientAddressOf: adapters.clientAddressOf, requestLog: adapters.requestLog, logger }),
    serverSettings: { maxBodyBytes: server.max_body_bytes },
    async close() {
      try {
        await rateLimits.save(clock());
        logger.info({ event: 'ratelimit_snapshot_saved' }, 'rate-limit snapshot saved');
      } catch (error) {
        logger.error({ event: 'ratelimit_snapshot_failed', reason: safeReason(error) }, 'rate-limit snapshot not saved');
      }
      await rateLimits.close?.();
      await runner?.stop();
      await newsletter.close();
      await queue?.stop(QUEUE_STOP_GRACE_MS);
    },
  };
}
