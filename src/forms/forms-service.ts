// The forms service (docs/forms-api.md): the routes of every form behind one front door, over the mail core
// (app/mail-core.ts: counters, newsletter, delivery) and the per-IP rate limits it keeps itself. The newsletter's
// pages and the bounce webhooks are their folders' route tables (newsletter/http/, bounces/http/), mounted here.
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { BounceWebhooks } from '../bounces/intake/webhook-intake.js';
import type { FormConfig, NewsletterAutomation, NewsletterList, ServerConfig } from '../config/config.js';
import { createFrontDoor } from '../http/front-door.js';
import type { HttpService } from '../http/http-service.js';
import type { RequestLog } from '../http/request-log.js';
import { createRequestDurations, type RequestDurations } from '../http/request-durations.js';
import type { Route } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import { createBounceRoutes } from '../bounces/http/bounce-routes.js';
import { createFormRoutes, formsDoorAnswers } from './http/form-routes.js';
import type { Metrics, MetricsSnapshot } from './metrics.js';
import { createNewsletterRoutes } from '../newsletter/http/newsletter-routes.js';
import type { Newsletter } from '../newsletter/index.js';
import { resolveSiteName } from './notifications.js';
import type { ArchiveStore, Clock } from '../ports.js';
import { loadFormRateLimits, type FormRateLimits } from './rate-limits.js';
import { createSubmitFlow, type SubmitFlowDeps } from './submit-flow.js';
import type { SpamStore } from './spam/quarantine.js';
import { createSpamCheck, type SpamCheck, type SpamCheckDeps } from './spam/spam-check.js';
import { createAttachmentParts, type AttachmentDeps } from './attachment-parts.js';

/** What the forms service is configured with. */
export interface FormsSettings {
  dataDir: string;
  server: ServerConfig;
  forms: readonly FormConfig[];
  /** Every newsletter list (docs/newsletter.md "Lists"); the forms' own lists alone when left out. */
  newsletterLists?: readonly NewsletterList[];
  /** `config.newsletter.preferences_url` (docs/newsletter.md "Preferences"). */
  preferencesUrl?: string;
  /** `config.newsletter.automations` (docs/newsletter.md "Automations"); none when left out. */
  newsletterAutomations?: readonly NewsletterAutomation[];
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

/** How an accepted submission's mails and notifications leave: queued, or sent at once. */
export type SubmissionDelivery = SubmitFlowDeps['deliver'];

/** What the running forms service counts, read in the same process (the dashboard of /admin). */
export interface FormsReadings {
  snapshot(): MetricsSnapshot;
  /** The queue's pending and failed messages; undefined without `[mail] queue`. */
  queueCounts?(): { pending: number; failed: number; fsyncs: number };
}

/** The parts of the mail core the service answers from. */
export interface FormsServiceCore {
  metrics: Metrics;
  newsletter: Newsletter;
  deliver: SubmissionDelivery;
  readings: FormsReadings;
}

/** What the forms service works through. */
export interface FormsServiceDeps {
  logger: Logger;
  requestLog: RequestLog;
  clock: Clock;
  /** Where form archives are kept: data_dir/<archive> or PostgreSQL (`[state] backend`). */
  archives: ArchiveStore;
  /** The parts of the backend that cannot be reached now, for /health. */
  unavailableParts(): string[];
  /** Rate limits shared by replicas (Redis, `[rate_limit] backend = "redis"`); in memory with a snapshot file unless given. */
  rateLimits?: FormRateLimits;
  /** The client address of a request (docs/configuration.md "trust_proxy_headers"). */
  clientAddressOf(request: IncomingMessage): string;
  /** The bucket a client address counts against. */
  rateLimitKey(address: string): string;
  /** Routes served beside the forms' own on its listener (/admin when there is no [blog]). */
  extraRoutes?: readonly Route[];
  /** The providers' bounce webhooks of `[mail.bounces.webhooks]`, at POST /bounces/<provider> (docs/bounces.md). */
  bounceWebhooks?: BounceWebhooks;
  /** Request durations, shared with the blog's listener in one process (docs/forms-api.md "/metrics"); one of its own unless given. */
  requestDurations?: RequestDurations;
  /** The quarantine and the used proof-of-work challenges (docs/spam.md), in the state store. */
  spamStore: SpamStore;
  /** What the spam checks need beside the store: the challenges' keys, and how the captcha provider is asked. */
  spam: Omit<SpamCheckDeps, 'ledger'>;
  /** Counts each accepted submission's page as a conversion (docs/analytics.md), with [analytics]. */
  convert?(form: string, page: string): void;
  /** Storage and scanner of the forms' files (docs/attachments.md), when a form takes them. */
  attachments?: AttachmentDeps;
}

/** Makes data_dir and loads the rate-limit snapshot, then builds the routes behind one front door. */
export async function createFormsService(settings: FormsSettings, core: FormsServiceCore, deps: FormsServiceDeps): Promise<HttpService> {
  const { dataDir, server, forms } = settings;
  const { logger, clock } = deps;
  const { metrics, newsletter, deliver } = core;
  // Archives and the rate-limit snapshot are written there; a first start may find no folder yet.
  await mkdir(dataDir, { recursive: true });
  const siteNameFor = (form: FormConfig) => resolveSiteName(settings.siteTitle, form, server.public_url);
  const rateLimits = deps.rateLimits ?? (await loadFormRateLimits(forms, dataDir, clock(), logger));
  const spamChecks = new Map<string, SpamCheck>(forms.map((form) => [form.path, createSpamCheck(form, { ...deps.spam, ledger: deps.spamStore })]));
  const spamCheckOf = (form: FormConfig) => spamChecks.get(form.path) as SpamCheck;
  const requestDurations = deps.requestDurations ?? createRequestDurations();
  const attachments =
    deps.attachments && createAttachmentParts(forms, server.public_url, deps.attachments, { logger, clock, metrics, newsletter, archives: deps.archives, deliver, spamStore: deps.spamStore });

  const formRoutes = createFormRoutes({
    forms,
    metrics,
    formCount: forms.length,
    queueCounts: core.readings.queueCounts,
    unavailableParts: () => [...deps.unavailableParts(), ...(rateLimits.unavailableParts?.() ?? [])],
    metricsToken: server.metrics_token,
    requestDurations,
    proofOfWorkOf: (form) => spamCheckOf(form).proofOfWork,
    clock,
    bounceProviders: deps.bounceWebhooks?.providers,
    submitFlowOf: (form) =>
      createSubmitFlow(form, {
        metrics,
        logger,
        clock,
        limiter: rateLimits.limiterFor(form.path),
        rateLimitKey: deps.rateLimitKey,
        maxBodyBytes: server.max_body_bytes,
        newsletter,
        archives: deps.archives,
        deliver,
        spam: spamCheckOf(form),
        quarantine: deps.spamStore,
        convert: deps.convert,
        linkAttachments: attachments?.linkAttachments,
        attachments: attachments?.flowPartsOf(form),
      }),
  });
  const routes = [
    ...(deps.extraRoutes ?? []),
    ...(attachments ? [attachments.downloadRoute] : []),
    ...formRoutes,
    ...createNewsletterRoutes(forms, newsletter, (form) => ({ name: siteNameFor(form), url: form.allowed_origins[0] ?? settings.siteUrl })),
    ...(deps.bounceWebhooks ? createBounceRoutes(deps.bounceWebhooks, server.max_body_bytes) : []),
  ];

  return {
    name: 'forms',
    listen: server.listen,
    handle: createFrontDoor({ routes, answers: formsDoorAnswers, clientAddressOf: deps.clientAddressOf, requestLog: deps.requestLog, logger, requestDurations }),
    // A form with attachments takes max_files * max_bytes beside its fields: "100 Continue" for such a body too.
    serverSettings: { maxBodyBytes: server.max_body_bytes + Math.max(0, ...forms.map((form) => (form.type === 'newsletter' || !form.attachments ? 0 : form.attachments.max_files * form.attachments.max_bytes))) },
    async close() {
      attachments?.stop();
      try {
        await rateLimits.save(clock());
        logger.info({ event: 'ratelimit_snapshot_saved' }, 'rate-limit snapshot saved');
      } catch (error) {
        logger.error({ event: 'ratelimit_snapshot_failed', reason: safeReason(error) }, 'rate-limit snapshot not saved');
      }
      await rateLimits.close?.();
    },
  };
}
