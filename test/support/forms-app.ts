// The forms service built for tests: a temp data_dir, a recording mailer, captured logs and a test clock, with
// any adapter replaceable. The config is the real loader's output for the given tables; requests go through
// the service's own front door (`app.inject`) or a real socket (`app.listen`).
import { afterEach } from 'node:test';
import type { Backend } from '../../src/adapters/backend.js';
import { composeMailCore, composeFormsService, type MailCoreParts, type NotifierFactories, type SpamParts } from '../../src/app/compose.js';
import type { MailCore } from '../../src/app/mail-core.js';
import { openBackend } from '../../src/app/open-backend.js';
import type { Config } from '../../src/config/config.js';
import type { HttpService } from '../../src/http/http-service.js';
import type { RunningNewsletter } from '../../src/newsletter/flow.js';
import type { Mailer, Timers } from '../../src/ports.js';
import { createTestClock, type TestClock } from './clock.js';
import { loadTestConfig, type TomlTable } from './config.js';
import { driveService, type ServiceDriver } from './http.js';
import { captureLogs, type LogCapture } from './log-capture.js';
import { createRecordingMailer, type RecordingMailer } from './recording-mailer.js';
import { createTempDir } from './temp-dir.js';

export interface TestFormsService {
  service: HttpService;
  /** The core the service answers from: the newsletter, the queue, the campaigns. */
  core: MailCore;
  backend: Backend;
  app: ServiceDriver;
  config: Config;
  mailer: RecordingMailer;
  logs: LogCapture;
  clock: TestClock;
  dataDir: string;
  /** GET /metrics, parsed. */
  metrics(): Promise<{ totals: Record<string, number>; forms: Record<string, Record<string, number>> }>;
  /** Runs the service's close and removes the data_dir. */
  close(): Promise<void>;
}

/** Parts a test may replace, and how notifiers are made from a form's [forms.telegram] and [forms.webhook]. */
export type TestFormsDeps = NotifierFactories & SpamParts & { mailer?: Mailer; clock?: () => number; createNewsletter?: MailCoreParts['createNewsletter']; timers?: Timers };

export interface TestFormsOptions {
  /** The [[forms]] tables; default: one contact form at /contact allowing https://example.com. */
  forms?: TomlTable[];
  /** Extra top-level tables merged into the config (server, mail, site...). */
  extra?: TomlTable;
  /** Adapters to replace; logger, mailer and clock default to the capture, recorder and test clock. */
  deps?: TestFormsDeps;
  /** Use this data_dir instead of a fresh temp one (it is not removed on close). */
  dataDir?: string;
}

export const TEST_ORIGIN = 'https://example.com';
/** The retry schedule of a test's mail queue: 20 ms, doubling, at most 100 ms apart, for an hour. */
export const TEST_RETRY_POLICY = Object.freeze({ firstDelayMs: 20, maxDelayMs: 100, maxAgeMs: 3_600_000 });
export const OWNER_ADDRESS = 'owner@example.com';
export const FROM_ADDRESS = 'Forms <forms@example.com>';

/** A contact form table with the given overrides. */
export function contactForm(overrides: TomlTable = {}): TomlTable {
  return { path: '/contact', type: 'contact', allowed_origins: [TEST_ORIGIN], ...overrides };
}

/** Builds the forms service for `options`; remember to `close()` it. */
export async function createTestFormsService(options: TestFormsOptions = {}): Promise<TestFormsService> {
  const temp = options.dataDir === undefined ? await createTempDir('forms') : undefined;
  const dataDir = options.dataDir ?? (temp as { dir: string }).dir;
  const extra = options.extra ?? {};
  const logs = captureLogs();
  const mailer = createRecordingMailer();
  const clock = createTestClock();
  let config: Config;
  let service: HttpService;
  let core: MailCore | undefined;
  let backend: Backend | undefined;
  try {
    config = loadTestConfig(
      {
        data_dir: dataDir,
        ...extra,
        // Synchronous delivery (docs/forms-api.md "Delivery") unless a test turns the queue on (test/forms/queue/).
        mail: { from: FROM_ADDRESS, to: OWNER_ADDRESS, queue: false, ...((extra.mail as TomlTable | undefined) ?? {}) },
        forms: options.forms ?? [contactForm()],
      },
      dataDir,
    );
    const deps = options.deps ?? {};
    // As the composition root does: one backend (one PostgreSQL pool when [state] asks for it).
    backend = openBackend(config, logs.logger);
    const used = { logger: logs.logger, clock: deps.clock ?? clock, mailer: deps.mailer ?? mailer };
    // A queue (when a test turns it on) retries within milliseconds, on real time: tests do not wait a minute.
    core = await composeMailCore(config, config.mail!, backend, { ...deps, ...used, queue: { policy: TEST_RETRY_POLICY, pollIntervalMs: 20 } });
    // Held attachments are tried again on `deps.timers` (fake time in test/forms/attachments.test.ts).
    service = await composeFormsService(config, config.mail!, backend, core, { ...used, requestLog: logs.requestLog, fetch: deps.fetch, captchaVerifyUrl: deps.captchaVerifyUrl, timers: deps.timers });
  } catch (error) {
    // A rejected config or a failing start leaves no temp folder behind.
    await core?.close();
    await backend?.close();
    await temp?.remove();
    throw error;
  }
  const running = { core, backend };
  const driver = driveService(service);
  const newsletter = running.core.newsletter as Partial<RunningNewsletter>;
  const app: ServiceDriver = {
    ...driver,
    // A signup is answered before its confirmation mail is handed over (docs/newsletter.md "Duplicates"): inject
    // resolves once that is done too, so that a test reads the mail right after the answer.
    async inject(options) {
      const response = await driver.inject(options);
      await newsletter.settled?.();
      return response;
    },
  };
  let closed = false;
  return {
    service,
    core: running.core,
    backend: running.backend,
    app,
    config,
    mailer,
    logs,
    clock,
    dataDir,
    async metrics() {
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      return response.json();
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      await running.core.close();
      await running.backend.close();
      await temp?.remove();
    },
  };
}

/**
 * For a test file's top level: returns a `start(options)` that builds the service like createTestFormsService
 * and registers an afterEach closing every service started during the test, even when the test failed.
 */
export function useTestFormsService(): (options?: TestFormsOptions) => Promise<TestFormsService> {
  const open: TestFormsService[] = [];
  afterEach(async () => {
    for (const forms of open.splice(0)) await forms.close();
  });
  return async (options = {}) => {
    const forms = await createTestFormsService(options);
    open.push(forms);
    return forms;
  };
}
