// Builds the forms service from the configuration (forms-service.md, contract section 3): real adapters by
// default, each replaceable through FormsServiceDeps so that tests run with fakes and a fixed clock.
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Config, FormConfig } from '../config/schema.js';
import { createHttpApp } from '../http/app.js';
import type { Logger } from '../log.js';
import { createMailer, outboxDirOf } from '../mail/create-mailer.js';
import { createTelegramNotifier, type TelegramSettings } from '../chat/telegram.js';
import type { Service } from '../service.js';
import { appendJsonLine } from '../storage/jsonl.js';
import { createDelivery } from './delivery.js';
import { createMetrics } from './metrics.js';
import { createNewsletter, type Newsletter, type NewsletterDeps } from './newsletter/index.js';
import { resolveSiteName } from './notifications.js';
import type { ChatNotifier, Clock, Mailer, RandomBytes } from './ports.js';
import { loadFormRateLimits } from './rate-limits.js';
import type { FormsContext } from './routes/context.js';
import { installFormsFastPath } from './routes/fast-path.js';
import { allowedMethodsOf, registerFormRoutes } from './routes/form-routes.js';
import { leaveBodiesToRoutes } from './routes/own-body-parsing.js';
import { registerStatusRoutes } from './routes/status-routes.js';

export interface FormsServiceDeps {
  logger: Logger;
  /** Defaults to Date.now. */
  clock?: Clock;
  /** Defaults to crypto.randomBytes. */
  randomBytes?: RandomBytes;
  /** Defaults to the transport [mail] configures (SMTP pool, or .eml files in data_dir/outbox). */
  mailer?: Mailer;
  /** Defaults to the Telegram Bot API over fetch. */
  createChatNotifier?: (settings: TelegramSettings) => ChatNotifier;
  /** Defaults to the newsletter double opt-in. */
  createNewsletter?: (deps: NewsletterDeps) => Promise<Newsletter>;
  /** Defaults to the durable JSONL append of src/storage/jsonl.ts. */
  appendLine?: (file: string, record: object) => Promise<void>;
  /** Read time-out of a request; 15 s by default, shorter in tests. */
  requestTimeoutMs?: number;
}

/** The forms service: creates data_dir and its outbox, loads the rate-limit snapshot, builds the routes. */
export async function createFormsService(config: Config, deps: FormsServiceDeps): Promise<Service> {
  const { logger } = deps;
  const clock = deps.clock ?? Date.now;
  const mailConfig = config.mail;
  if (!mailConfig) throw new Error('the forms service needs [mail] in the configuration');
  await mkdir(outboxDirOf(config.data_dir), { recursive: true });

  const metrics = createMetrics(config.forms.map((form) => form.path));
  const mailer = deps.mailer ?? createMailer(mailConfig, config.data_dir, clock);
  const newsletter = await (deps.createNewsletter ?? createNewsletter)({
    config,
    mailer,
    metrics,
    logger,
    clock,
    randomBytes: deps.randomBytes ?? cryptoRandomBytes,
  });
  const rateLimits = await loadFormRateLimits(config.forms, config.data_dir, clock(), logger);

  const createChatNotifier = deps.createChatNotifier ?? ((settings: TelegramSettings) => createTelegramNotifier(settings));
  const chatNotifiers = new Map<string, ChatNotifier>();
  for (const form of config.forms) {
    if (form.telegram) {
      const { bot_token: botToken, chat_id: chatId, api_url: apiUrl } = form.telegram;
      chatNotifiers.set(form.path, createChatNotifier({ botToken, chatId, apiUrl }));
    }
  }

  const context: FormsContext = {
    config,
    metrics,
    logger,
    clock,
    rateLimits,
    newsletter,
    archive: deps.appendLine ?? appendJsonLine,
    deliver: createDelivery({
      mailer,
      metrics,
      logger,
      addressesFor: (form: FormConfig) => ({ from: mailConfig.from, owner: form.to ?? (mailConfig.to as string) }),
      chatNotifierFor: (form) => chatNotifiers.get(form.path),
      siteNameFor: (form) => resolveSiteName(config.site?.title, form, config.server.public_url),
    }),
  };

  const app = createHttpApp({
    logger,
    trustedProxyHops: config.server.trust_proxy_headers,
    requestTimeoutMs: deps.requestTimeoutMs,
    allowedMethods: allowedMethodsOf(config.forms),
  });
  leaveBodiesToRoutes(app);
  registerStatusRoutes(app, context);
  const decisions = registerFormRoutes(app, context);
  installFormsFastPath(app.server, {
    decisions,
    trustedProxyHops: config.server.trust_proxy_headers,
    requestLog: app.requestLog,
    maxBodyBytes: config.server.max_body_bytes,
  });

  return {
    name: 'forms',
    app,
    listen: config.server.listen,
    async shutdown() {
      app.requestLog.flush();
      try {
        await rateLimits.save(clock());
        logger.info({ event: 'ratelimit_snapshot_saved' }, 'rate-limit snapshot saved');
      } catch (error) {
        logger.error({ event: 'ratelimit_snapshot_failed', reason: (error as NodeJS.ErrnoException).code ?? 'error' }, 'rate-limit snapshot not saved');
      }
      await newsletter.close();
      await mailer.close();
    },
  };
}
