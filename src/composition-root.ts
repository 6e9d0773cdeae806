// The one place where adapters are made (STYLE.md "the composition root builds the adapters"): the mailer, chat
// and webhook notifiers, the line appender, the clock, randomness and the client-address resolver are built here from the
// configuration, and each service gets only its own settings and what it works through.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createAdmin, type Admin, type SharedAdminRecords } from './admin/admin.js';
import type { AdminRoute } from './admin/admin-pages.js';
import { ADMIN_SESSIONS_FILE, type SessionFile } from './admin/sessions.js';
import { adminPagesOf, type LateParts } from './admin-composition.js';
import { adminWarnings } from './check-summary.js';
import { campaignStoreOf } from './campaign-store-of.js';
import { adminServiceOf, type Config, type ListenAddress, type MailConfig, type WebhookConfig } from './config/config.js';
import { createTelegramNotifier, type TelegramSettings } from './chat/telegram.js';
import { createWebhookNotifier } from './chat/webhook.js';
import { createBlogService } from './blog/blog-service.js';
import { LOAD_CACHE_FILE } from './blog/content/load-cache.js';
import { SEARCH_WORDS_FILE } from './blog/catalog/search-words-file.js';
import { createFormsService, type FormsAdapters, type FormsSettings } from './forms/forms-service.js';
import type { ChatNotifier, Clock, Mailer, WebhookNotifier } from './ports.js';
import { createRateLimitKey } from './forms/rules/rate-limit-key.js';
import { createClientAddressResolver } from './http/client-ip.js';
import type { HttpService } from './http/http-service.js';
import type { RequestLog } from './http/request-log.js';
import type { Logger } from './log.js';
import { createMailer } from './mail/create-mailer.js';
import { fileTransportNotice, outboxDirOf } from './mail/outbox-dir.js';
import { createDispatch } from './queue/dispatch.js';
import { retryPolicyOf } from './queue/retry-policy.js';
import { writeFileAtomically } from './files/atomic-file.js';
import { createJsonlAppender, createJsonlFiles, type FileExclusive, type JsonlAppend } from './files/jsonl.js';
import { createRedisRateLimits } from './storage/redis-rate-limits.js';
import { createFileArchiveStore } from './storage/archive-store-files.js';
import { createPostgresArchiveStore } from './storage/postgres/archive-store.js';
import { createPostgresNewsletterStore } from './storage/postgres/newsletter-store.js';
import { createPostgresQueueStore } from './storage/postgres/queue-store.js';
import { createPostgresState, type PostgresState } from './storage/postgres/state.js';
import { createPostgresSessionStore } from './storage/postgres/admin-sessions.js';
import { createPostgresSignInThrottle } from './storage/postgres/sign-in-failures.js';
import { createQueueFiles, queueDirOf } from './storage/queue-files.js';

export { ADMIN_SESSIONS_FILE } from './admin/sessions.js';
export { TRASH_FOLDER } from './admin-composition.js';

export interface RootDeps {
  logger: Logger;
  requestLog: RequestLog;
  /** Milliseconds since the epoch; Date.now unless a test sets the time. */
  clock?: Clock;
  /** The pages of /admin behind its sign-in; the posts pages over blog.content_dir unless a test hands in others. */
  adminPages?: readonly AdminRoute[];
}

/** data_dir/admin-sessions.json: read at start, replaced atomically on every change (docs/admin.md "Sessions"). */
export function createSessionFile(dataDir: string): SessionFile {
  const file = path.join(dataDir, ADMIN_SESSIONS_FILE);
  return {
    read: () =>
      readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      }),
    write: (text) => writeFileAtomically(file, text),
  };
}

/** Sessions and failed sign-ins in PostgreSQL, seen by every replica (contract section 8). */
export function createPostgresAdminRecords(postgres: PostgresState): SharedAdminRecords {
  return { openSessions: (options) => createPostgresSessionStore(postgres, options), throttle: createPostgresSignInThrottle(postgres) };
}

/**
 * /admin when the configuration has [admin]: its routes go to the service adminServiceOf names. With `postgres`
 * its sessions, failed sign-ins and archives are the database's, else data_dir's and this process's.
 */
async function composeAdmin(config: Config, deps: RootDeps, clock: Clock, late: LateParts, exclusive: FileExclusive, postgres?: PostgresState): Promise<Admin | undefined> {
  if (!config.admin) return undefined;
  await mkdir(config.data_dir, { recursive: true });
  for (const warning of adminWarnings(config)) deps.logger.warn({ event: 'admin_example_password' }, warning);
  return createAdmin(
    { admin: config.admin },
    postgres
      ? { logger: deps.logger, clock, randomBytes, sharedRecords: createPostgresAdminRecords(postgres) }
      : { logger: deps.logger, clock, randomBytes, sessionFile: createSessionFile(config.data_dir) },
    deps.adminPages ?? adminPagesOf(config, { logger: deps.logger, clock, late, exclusive, postgres }),
  );
}

/** `service` with room for the admin's request bodies in its 100-continue limit. */
function withAdminBodies(service: HttpService, admin: Admin): HttpService {
  const maxBodyBytes = Math.max(service.serverSettings.maxBodyBytes, admin.maxBodyBytes);
  return { ...service, serverSettings: { ...service.serverSettings, maxBodyBytes } };
}

/** The services the configuration asks for, not listening yet, and what to release once they stopped. */
export interface ComposedServices {
  services: HttpService[];
  /** Closes the adapters (the SMTP pool) after every service closed. */
  close(): Promise<void>;
}

/** The forms service's own part of the configuration. */
export function formsSettingsOf(config: Config, mail: MailConfig): FormsSettings {
  return {
    dataDir: config.data_dir,
    server: config.server,
    forms: config.forms,
    from: mail.from,
    siteTitle: config.site?.title,
    siteUrl: config.site?.base_url,
    mailServer: mail.transport === 'smtp' ? `${mail.smtp.host}:${mail.smtp.port}` : undefined,
    sendPerMinute: mail.send_per_minute,
  };
}

/** How notifiers are made from a form's settings; tests hand in fakes or local endpoints. */
export interface NotifierFactories {
  /** The Telegram Bot API unless a test hands in a fake. */
  createChatNotifier?: (settings: TelegramSettings) => ChatNotifier;
  /** A POST to the configured URL (src/chat/webhook.ts) unless a test hands in a fake. */
  createWebhookNotifier?: (settings: WebhookConfig) => WebhookNotifier;
}

/**
 * The forms service's adapters for `config`, around the given logs, clock and mailer: chat and webhook notifiers
 * (made by the given factories), the mail queue in data_dir/queue when `[mail] queue` is on, the line appender,
 * randomness, the client-address resolver and the rate-limit key.
 */
export function createFormsAdapters(
  config: Config,
  parts: Pick<FormsAdapters, 'logger' | 'requestLog' | 'clock' | 'mailer'> & NotifierFactories & { appendLine?: JsonlAppend; postgres?: PostgresState },
): FormsAdapters {
  const {
    appendLine = createJsonlAppender(),
    createChatNotifier = createTelegramNotifier,
    createWebhookNotifier: makeWebhookNotifier = (settings) => createWebhookNotifier(settings, { clock: parts.clock }),
    postgres,
    ...given
  } = parts;
  const chatNotifiers = new Map<string, ChatNotifier>();
  const webhookNotifiers = new Map<string, WebhookNotifier>();
  for (const form of config.forms) {
    if (form.type === 'newsletter') continue;
    if (form.telegram) {
      const { bot_token: botToken, chat_id: chatId, api_url: apiUrl } = form.telegram;
      chatNotifiers.set(form.path, createChatNotifier({ botToken, chatId, apiUrl }));
    }
    if (form.webhook) webhookNotifiers.set(form.path, makeWebhookNotifier(form.webhook));
  }
  const mail = config.mail;
  if (config.state.backend === 'postgres' && !postgres) throw new Error('[state] backend = "postgres" needs the PostgreSQL state from the composition root');
  return {
    ...given,
    archives: postgres ? createPostgresArchiveStore(postgres) : createFileArchiveStore(config.data_dir, appendLine),
    newsletterStore: postgres && createPostgresNewsletterStore(postgres, randomBytes),
    sharedState: postgres && { unavailableParts: () => postgres.unavailableParts() },
    randomBytes,
    chatNotifiers,
    webhookNotifiers,
    queue: mail?.queue
      ? {
          // With PostgreSQL the replicas share one queue: each message is claimed and sent by one of them.
          store: postgres ? createPostgresQueueStore(postgres) : createQueueFiles(queueDirOf(config.data_dir)),
          dispatch: createDispatch({ mailer: given.mailer, chatNotifiers, webhookNotifiers }),
          policy: retryPolicyOf(mail.queue_max_hours),
          clock: given.clock,
          random: Math.random,
        }
      : undefined,
    campaigns: mail?.queue ? campaignStoreOf(config, postgres) : undefined,
    rateLimits: config.rate_limit.backend === 'redis' ? createRedisRateLimits(config.rate_limit.url!, config.forms, given.logger) : undefined,
    appendLine,
    clientAddressOf: createClientAddressResolver(config.server.trust_proxy_headers),
    rateLimitKey: createRateLimitKey(config.server.rate_limit_ipv6_prefix),
  };
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

/**
 * Builds every adapter and service of `config` (those of plannedServicesOf, in its order); when one service
 * fails to start, what was built is closed.
 */
export async function composeServices(config: Config, deps: RootDeps): Promise<ComposedServices> {
  const { logger, requestLog } = deps;
  const clock = deps.clock ?? Date.now;
  const services: HttpService[] = [];
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const service of services.splice(0).reverse()) await service.close();
    for (const closeAdapter of closers.splice(0).reverse()) await closeAdapter();
  };
  try {
    const late: LateParts = { blog: {}, runner: {}, newsletter: {}, readings: {} };
    // [state] backend = "postgres": one pool per process for every shared record (contract section 8), closed last.
    const postgres = config.state.backend === 'postgres' ? createPostgresState(config.state.url!, logger) : undefined;
    if (postgres) closers.push(() => postgres.close());
    // One per process: the archive's appends and the inbox's rewrites of it take turns (src/files/jsonl.ts).
    const jsonl = createJsonlFiles();
    const admin = await composeAdmin(config, deps, clock, late, jsonl.exclusive, postgres);
    if (admin) closers.push(() => admin.close());
    const adminOn = adminServiceOf(config);
    if (config.mail && config.forms.length > 0) {
      const mailer: Mailer = createMailer(config.mail, config.data_dir, clock);
      closers.push(() => mailer.close());
      if (config.mail.transport === 'file') {
        logger.warn({ event: 'mail_not_sent', outbox: outboxDirOf(config.data_dir) }, `mail is ${fileTransportNotice(config.data_dir)}`);
      }
      const adapters: FormsAdapters = {
        ...createFormsAdapters(config, { logger, requestLog, clock, mailer, appendLine: jsonl.append, postgres }),
        onCampaignRunner: (runner) => {
          late.runner.current = runner;
        },
        onNewsletter: (newsletter) => {
          late.newsletter.current = newsletter;
        },
        onMetrics: (readings) => {
          late.readings.current = readings;
        },
      };
      // Closed by the forms service when it stops; here too, for a start that fails after the connection was made.
      const { rateLimits } = adapters;
      if (rateLimits?.close) closers.push(() => rateLimits.close!());
      const forms = await createFormsService(formsSettingsOf(config, config.mail), adminOn === 'forms' && admin ? { ...adapters, extraRoutes: admin.routes } : adapters);
      services.push(adminOn === 'forms' && admin ? withAdminBodies(forms, admin) : forms);
    }
    if (config.blog && config.site) {
      const withAdmin = adminOn === 'blog' && admin !== undefined;
      const blog = await createBlogService(
        { site: config.site, blog: config.blog },
        {
          logger,
          requestLog,
          // Without /admin the blog's address is only written to the request line, so no proxy header is trusted;
          // with it, sign-in is throttled per address, so the proxies of [server] trust_proxy_headers are trusted.
          clientAddressOf: createClientAddressResolver(withAdmin ? config.server.trust_proxy_headers : 0),
          clock: () => new Date(clock()),
          loadCacheFile: path.join(config.data_dir, LOAD_CACHE_FILE),
          searchWordsFile: path.join(config.data_dir, SEARCH_WORDS_FILE),
          extraRoutes: withAdmin ? admin.routes : undefined,
        },
      );
      late.blog.current = blog;
      services.push(withAdmin ? withAdminBodies(blog, admin) : blog);
    }
    return { services, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
