// The composition root (docs/architecture.md): the one place where adapters are made from the configuration. It
// opens the backend, builds the core in dependency order (the blog's content, the mail core with its queue,
// newsletter and campaigns), then /admin on the core, then the HTTP services that show it. Each part gets only its
// own settings and what it works through.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Backend } from '../adapters/backend.js';
import { createAccounts } from '../admin/accounts/accounts.js';
import { createAdmin, type Admin } from '../admin/admin.js';
import type { AdminRoute } from '../admin/admin-pages.js';
import { createBlogContent, type BlogContent } from '../blog/blog-content.js';
import type { BlogSnapshot } from '../blog/http/snapshot.js';
import { createBlogService } from '../blog/blog-service.js';
import { SEARCH_WORDS_FILE } from '../blog/catalog/search-words-file.js';
import { LOAD_CACHE_FILE } from '../blog/content/load-cache.js';
import { createCampaignTestSender } from './campaign-test-send.js';
import { createTelegramNotifier, type TelegramSettings } from '../adapters/notify/telegram.js';
import { createWebhookNotifier } from '../adapters/notify/webhook.js';
import { adminWarnings } from '../admin/example-user.js';
import { adminServiceOf, type Config, type ListenAddress, type MailConfig, type WebhookConfig } from '../config/config.js';
import { createFormsService, type FormsSettings } from '../forms/forms-service.js';
import { createAttachmentStoreOf, takesAttachments } from './attachment-storage.js';
import { createClamdScanner } from '../adapters/clamd/clamd-scanner.js';
import { parseClamdAddress } from '../config/attachments.js';
import { createMetricsRoute } from '../forms/http/status-routes.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import { proofOfWorkSecrets } from '../forms/spam/proof-of-work.js';
import { createClientAddressResolver } from '../http/client-ip.js';
import type { HttpService } from '../http/http-service.js';
import type { RequestLog } from '../http/request-log.js';
import { createRequestDurations, type RequestDurations } from '../http/request-durations.js';
import type { Route } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import { createMailer } from '../adapters/mail/create-mailer.js';
import { fileTransportNotice, outboxDirOf } from '../adapters/mail/outbox-dir.js';
import type { ChatNotifier, Clock, Mailer, Timers, WebhookNotifier } from '../ports.js';
import { systemTimers } from '../kit/timers.js';
import { retryPolicyOf } from '../queue/retry-policy.js';
import { createRedisRateLimits } from '../adapters/redis/rate-limits.js';
import { createAdminPages } from './admin-pages.js';
import { MAX_EVENT_BYTES } from '../analytics/http/analytics-routes.js';
import { composeAnalytics } from './analytics.js';
import { composeCommentMail, composeCommentRoutes } from './comment-routes.js';
import { composeWebmentionPoster, composeWebmentionSender } from './webmention-sender.js';
import { composeActivityPubSending } from './activitypub.js';
import { startActivityPubQueue } from './activitypub-queue.js';
import { ACTIVITY_MAX_BODY_BYTES } from '../activitypub/http/activitypub-routes.js';
import { composeBounceWebhooks, startBounceMailboxOf } from './bounce-intakes.js';
import { createMailCore, type MailCore, type MailCoreDeps, type QueueTuning } from './mail-core.js';
import { composePostAutomations } from './automations.js';
import { composeGitContent } from './git-content.js';
import { openBackend } from './open-backend.js';
import { configOwnerAddresses, createOwnerCheck } from './owner-addresses.js';
import { createMediaStoreOf, createStoredMediaReaderOf } from './media-storage.js';

/** How notifiers are made from a form's settings; tests hand in fakes or local endpoints. */
export interface NotifierFactories {
  /** The Telegram Bot API unless a test hands in a fake. */
  createChatNotifier?: (settings: TelegramSettings) => ChatNotifier;
  /** A POST to the configured URL (src/adapters/notify/webhook.ts) unless a test hands in a fake. */
  createWebhookNotifier?: (settings: WebhookConfig) => WebhookNotifier;
}

export interface RootDeps extends NotifierFactories, SpamParts {
  logger: Logger;
  requestLog: RequestLog;
  /** Milliseconds since the epoch; Date.now unless a test sets the time. */
  clock?: Clock;
  /** Node's timers unless a test hands in fake time (the analytics' flushes, the activities' own queue). */
  timers?: Timers;
  /** The pages of /admin behind its sign-in; those of createAdminPages unless a test hands in others. */
  adminPages?: readonly AdminRoute[];
  /** Replaces parts of the queue's tuning (tests: short retries). */
  queue?: Partial<QueueTuning>;
}

/** The forms service's own part of the configuration. */
export function formsSettingsOf(config: Config, mail: MailConfig): FormsSettings {
  return {
    dataDir: config.data_dir,
    server: config.server,
    forms: config.forms,
    newsletterLists: config.newsletter.lists,
    preferencesUrl: config.newsletter.preferences_url,
    newsletterAutomations: config.newsletter.automations,
    from: mail.from,
    siteTitle: config.site?.title,
    siteUrl: config.site?.base_url,
    mailServer: mail.transport === 'smtp' ? `${mail.smtp.host}:${mail.smtp.port}` : undefined,
    sendPerMinute: mail.send_per_minute,
  };
}

/** The chat and webhook notifiers of every message form that has them, by form path. */
function notifiersOf(config: Config, factories: NotifierFactories, clock: Clock): Pick<MailCoreDeps, 'chatNotifiers' | 'webhookNotifiers'> {
  const makeChat = factories.createChatNotifier ?? createTelegramNotifier;
  const makeWebhook = factories.createWebhookNotifier ?? ((settings: WebhookConfig) => createWebhookNotifier(settings, { clock }));
  const chatNotifiers = new Map<string, ChatNotifier>();
  const webhookNotifiers = new Map<string, WebhookNotifier>();
  for (const form of config.forms) {
    if (form.type === 'newsletter') continue;
    if (form.telegram) {
      const { bot_token: botToken, chat_id: chatId, api_url: apiUrl } = form.telegram;
      chatNotifiers.set(form.path, makeChat({ botToken, chatId, apiUrl }));
    }
    if (form.webhook) webhookNotifiers.set(form.path, makeWebhook(form.webhook));
  }
  return { chatNotifiers, webhookNotifiers };
}

/** What the mail core of `config` is made with. */
export interface MailCoreParts extends NotifierFactories {
  logger: Logger;
  clock: Clock;
  /** Node's timers unless a test hands in fake time. */
  timers?: Timers;
  mailer: Mailer;
  /** Replaces parts of the queue's tuning (tests: short retries). */
  queue?: Partial<QueueTuning>;
  createNewsletter?: MailCoreDeps['createNewsletter'];
  /** Sends the blog's queued activities, with [blog.activitypub] (docs/activitypub.md). */
  deliverActivity?: MailCoreDeps['deliverActivity'];
}

/**
 * The mail core of `config` over `backend`: the queue with `[mail] queue`, the newsletter, the campaigns, and the
 * suppression list every mail passes (with the backend's `suppressions`; docs/bounces.md "Suppression").
 */
export function composeMailCore(
  config: Config,
  mail: MailConfig,
  backend: Pick<Backend, 'queue' | 'campaigns' | 'newsletter'> & Partial<Pick<Backend, 'suppressions' | 'accounts' | 'automations'>>,
  parts: MailCoreParts,
): Promise<MailCore> {
  const { logger, clock, mailer } = parts;
  return createMailCore(formsSettingsOf(config, mail), {
    backend,
    mailer,
    ...notifiersOf(config, parts, clock),
    webmentions: composeWebmentionPoster(config),
    logger,
    clock,
    timers: parts.timers ?? systemTimers,
    randomBytes,
    queue: mail.queue ? { policy: retryPolicyOf(mail.queue_max_hours), ...parts.queue } : undefined,
    createNewsletter: parts.createNewsletter,
    deliverActivity: parts.deliverActivity,
    bounces: { settings: mail.bounces, isOwnerAddress: createOwnerCheck(configOwnerAddresses(config), backend.accounts) },
  });
}

/** The forms HTTP service on `core`, with the rate limits of `[rate_limit]` (in memory, or Redis for replicas). */
export function composeFormsService(
  config: Config,
  mail: MailConfig,
  backend: Pick<Backend, 'archives' | 'unavailableParts' | 'spam' | 'newsletter'>,
  core: MailCore,
  parts: { logger: Logger; requestLog: RequestLog; clock: Clock; extraRoutes?: readonly Route[]; requestDurations?: RequestDurations; convert?(form: string, page: string): void; timers?: Timers } & SpamParts,
): Promise<HttpService> {
  const secret = memoize(() => backend.newsletter.secret());
  return createFormsService(formsSettingsOf(config, mail), core, {
    logger: parts.logger,
    requestLog: parts.requestLog,
    clock: parts.clock,
    archives: backend.archives,
    unavailableParts: () => backend.unavailableParts(),
    rateLimits: config.rate_limit.backend === 'redis' ? createRedisRateLimits(config.rate_limit.url!, config.forms, parts.logger) : undefined,
    clientAddressOf: createClientAddressResolver(config.server.trust_proxy_headers),
    rateLimitKey: createRateLimitKey(config.server.rate_limit_ipv6_prefix),
    extraRoutes: parts.extraRoutes,
    requestDurations: parts.requestDurations,
    convert: parts.convert,
    spamStore: backend.spam,
    // docs/attachments.md: files in data_dir/attachments/ or an S3 bucket, scanned by clamd.
    attachments: takesAttachments(config)
      ? {
          store: createAttachmentStoreOf(config),
          scanner: config.storage.clamd === undefined ? undefined : createClamdScanner(parseClamdAddress(config.storage.clamd)),
          secret: async () => `attachments:${await secret()}`,
          // Held submissions are retried every minute on these timers (tests hand in fake time).
          timers: parts.timers ?? systemTimers,
        }
      : undefined,
    // docs/bounces.md "Where bounces come from": POST /bounces/<provider>, into the suppression policy's sink.
    bounceWebhooks: composeBounceWebhooks(mail.bounces, core.bounces?.sink, { logger: parts.logger, clock: parts.clock, fetch: parts.fetch }),
    spam: {
      // The install's secret, shared by every replica of one state store, keys the challenges too.
      secrets: memoize(async () => proofOfWorkSecrets(await backend.newsletter.secret())),
      fetch: parts.fetch ?? globalThis.fetch,
      captchaVerifyUrl: parts.captchaVerifyUrl,
    },
  });
}

/** How the spam checks reach the captcha provider; tests point them at a server of their own. */
export interface SpamParts {
  fetch?: typeof fetch;
  captchaVerifyUrl?: string;
}

/** `load` called once, its promise shared; a failure is not kept, so the next call tries again. */
function memoize<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}

/** `service` with room for the admin's request bodies in its 100-continue limit. */
function withAdminBodies(service: HttpService, admin: Admin): HttpService {
  const maxBodyBytes = Math.max(service.serverSettings.maxBodyBytes, admin.maxBodyBytes);
  return { ...service, serverSettings: { ...service.serverSettings, maxBodyBytes } };
}

/** The services the configuration asks for, not listening yet, and what to release once they stopped. */
export interface ComposedServices {
  services: HttpService[];
  /** Stops the core and closes the adapters (the SMTP pool, the backend) after every service closed. */
  close(): Promise<void>;
}

/** A service `config` asks for, and where it listens: known before anything of it is built. */
export interface PlannedService {
  name: HttpService['name'];
  listen: ListenAddress;
}

/** The forms service when there are forms (and so [mail]), the blog service when there is [blog] (and so [site]). */
export function plannedServicesOf(config: Config): PlannedService[] {
  const planned: PlannedService[] = [];
  if (config.mail && config.forms.length > 0) planned.push({ name: 'forms', listen: config.server.listen });
  if (config.blog && config.site) planned.push({ name: 'blog', listen: config.blog.listen });
  return planned;
}

/** The blog's content over content_dir, with its caches in data_dir. */
function composeBlogContent(config: Config, logger: Logger, clock: Clock, onSnapshot?: (snapshot: BlogSnapshot) => void): Promise<BlogContent> | undefined {
  if (!config.blog || !config.site) return undefined;
  return createBlogContent(
    { site: config.site, blog: config.blog },
    {
      logger,
      // docs/comments.md "Webmentions": each post's answer names the endpoint that takes its webmentions.
      onSnapshot,
      detailHeaders: config.blog.comments.enabled ? { link: `<${config.blog.public_url}/webmention>; rel="webmention"` } : undefined,
      clock: () => new Date(clock()),
      loadCacheFile: path.join(config.data_dir, LOAD_CACHE_FILE),
      searchWordsFile: path.join(config.data_dir, SEARCH_WORDS_FILE),
    },
  );
}

/**
 * Opens the backend, builds the core and then the services of `config` (those of plannedServicesOf, in its order);
 * when a part fails to start, what was built is closed.
 */
export async function composeServices(config: Config, deps: RootDeps): Promise<ComposedServices> {
  const { logger, requestLog } = deps;
  const clock = deps.clock ?? Date.now;
  const services: HttpService[] = [];
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const service of services.splice(0).reverse()) await service.close();
    for (const closePart of closers.splice(0).reverse()) await closePart();
  };
  try {
    // One backend a process: one pool for every shared record, closed last.
    const backend = openBackend(config, logger, clock);
    closers.push(() => backend.close());
    await mkdir(config.data_dir, { recursive: true });
    // The core, in dependency order: the posts' repository first (a new replica's checkout), then the blog on it.
    const git = await composeGitContent(config, { backend, logger, clock });
    if (git) closers.push(() => git.close());
    // docs/activitypub.md: how a queued activity is sent; the posts' changes are published once the queue runs.
    const activitypub = composeActivityPubSending(config, backend, { logger, clock, fetch: deps.fetch });
    const mail = config.mail;
    let mailer: Mailer | undefined;
    // The mail core runs for the forms, and for the mails of comments (docs/comments.md "Reply notifications").
    const formsOn = config.forms.length > 0;
    if (mail && (formsOn || config.blog?.comments.enabled || activitypub)) {
      mailer = createMailer(mail, config.data_dir, clock);
      const opened = mailer;
      closers.push(() => opened.close());
      if (mail.transport === 'file') logger.warn({ event: 'mail_not_sent', outbox: outboxDirOf(config.data_dir) }, `mail is ${fileTransportNotice(config.data_dir)}`);
    }
    const forms = mail && mailer ? await composeMailCore(config, mail, backend, { ...deps, logger, clock, timers: systemTimers, mailer, deliverActivity: activitypub?.deliverActivity }) : undefined;
    if (forms) closers.push(() => forms.close());
    // The activities go through the mail queue when it runs, else through a queue worker of their own.
    const ownActivityQueue = activitypub && !forms?.queue ? await startActivityPubQueue(config, backend, activitypub.deliverActivity, { logger, timers: deps.timers ?? systemTimers, tuning: deps.queue }) : undefined;
    if (ownActivityQueue) closers.push(() => ownActivityQueue.close());
    const activityQueue = forms?.queue ?? ownActivityQueue;
    // The bounce mailbox reads into the core's suppression policy, so it stops before the core (docs/bounces.md).
    const bounceMailbox = mail && forms ? startBounceMailboxOf(mail.bounces, forms.bounces?.sink, { logger, clock, timers: systemTimers }) : undefined;
    if (bounceMailbox) closers.push(() => bounceMailbox.close());
    // Then the blog on the core's queue: the links of each post published or changed get their webmentions
    // (docs/comments.md "Sending"), and the followers their activities (docs/activitypub.md).
    const sender = composeWebmentionSender(config, backend.comments, forms?.queue, logger);
    if (sender) closers.push(() => sender.close());
    const notice = sender && activitypub ? (snapshot: BlogSnapshot) => (sender.notice(snapshot), activitypub.notice(snapshot)) : (sender?.notice ?? activitypub?.notice);
    const content = await composeBlogContent(config, logger, clock, notice);
    if (content) closers.push(() => content.close());
    const federated = activitypub && content && activityQueue ? activitypub.start(activityQueue, content) : undefined;
    if (federated) closers.push(() => federated.close());
    // docs/newsletter.md "Automations": posts mailed as they are published, and digests, through the core's campaigns.
    const automations = composePostAutomations(config, backend, content, forms, { clock, timers: systemTimers, logger });
    if (automations) closers.push(() => automations.stop());
    const commentMail = content && composeCommentMail(config, backend, forms?.queue, content, { clock, logger });
    // docs/analytics.md: page views and conversions counted in memory, written in batches; closed after the services.
    const analytics = composeAnalytics(config, backend, { logger, clock, timers: deps.timers ?? systemTimers });
    if (analytics) closers.push(() => analytics.close());
    // Then /admin on the core.
    let admin: Admin | undefined;
    if (config.admin) {
      for (const warning of adminWarnings(config)) logger.warn({ event: 'admin_example_password' }, warning);
      const sendTest = mail ? createCampaignTestSender(config, mail, clock, backend.newsletter) : undefined;
      const accounts = createAccounts(config.admin.users, backend.accounts);
      admin = await createAdmin(
        { admin: config.admin },
        { logger, clock, randomBytes, records: backend.admin, accounts, ipv6Prefix: config.server.rate_limit_ipv6_prefix },
        (tools) => deps.adminPages ?? createAdminPages(config, { backend, content, forms, automations, sendTest, accounts, logger, clock, git, commentMail, analytics: analytics !== undefined, ...tools }),
      );
      const opened = admin;
      closers.push(() => opened.close());
    }
    // Then the HTTP services that show it, counting their requests in one histogram for /metrics (docs/forms-api.md
    // "/metrics"): the forms service's, or without that service the blog's.
    const adminOn = adminServiceOf(config);
    const requestDurations = createRequestDurations();
    if (mail && forms && formsOn) {
      const withAdmin = adminOn === 'forms' && admin;
      const service = await composeFormsService(config, mail, backend, forms, {
        logger,
        requestLog,
        clock,
        extraRoutes: withAdmin ? admin!.routes : undefined,
        requestDurations,
        fetch: deps.fetch,
        captchaVerifyUrl: deps.captchaVerifyUrl,
        convert: analytics ? (form, page) => analytics.analytics.convert(form, page) : undefined,
        timers: deps.timers,
      });
      services.push(withAdmin ? withAdminBodies(service, admin!) : service);
    }
    if (content && config.blog && config.site) {
      const withAdmin = adminOn === 'blog' && admin !== undefined;
      const mediaStore = createMediaStoreOf(config);
      const comments = composeCommentRoutes(config, backend, content, { clock, timers: systemTimers, logger, fetch: deps.fetch, captchaVerifyUrl: deps.captchaVerifyUrl, mail: commentMail });
      if (comments) closers.push(() => comments.close());
      const blog = createBlogService({ site: config.site, blog: config.blog }, content, {
        logger,
        requestLog,
        // Without /admin or comments the blog's address is only written to the request line, so no proxy header is
        // trusted; with them, sign-in and comments are limited per address, so the proxies of [server]
        // trust_proxy_headers are trusted.
        clientAddressOf: createClientAddressResolver(withAdmin || comments || analytics ? config.server.trust_proxy_headers : 0),
        extraRoutes: [
          ...(withAdmin ? admin!.routes : []),
          ...(comments?.routes ?? []),
          ...(federated?.routes ?? []),
          ...(analytics?.routes ?? []),
          ...(mail && forms && formsOn ? [] : [createMetricsRoute({ metricsToken: config.server.metrics_token, requestDurations })]),
        ],
        requestDurations,
        documentParts: [...(comments ? [comments.documentPart] : []), ...(analytics ? [analytics.documentPart] : [])],
        readMedia: mediaStore && createStoredMediaReaderOf(config, mediaStore),
      });
      const bodyBytes = Math.max(comments?.maxBodyBytes ?? 0, federated ? ACTIVITY_MAX_BODY_BYTES : 0, analytics ? MAX_EVENT_BYTES : 0);
      const withComments = bodyBytes > blog.serverSettings.maxBodyBytes ? { ...blog, serverSettings: { ...blog.serverSettings, maxBodyBytes: bodyBytes } } : blog;
      services.push(withAdmin ? withAdminBodies(withComments, admin!) : withComments);
    }
    return { services, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
