// The forms service built for inject tests: a temp data_dir, a recording mailer, captured logs and a test
// clock, with any dependency replaceable. The config is the real loader's output for the given tables.
import { afterEach } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config/schema.js';
import { createFormsService, type FormsServiceDeps } from '../../src/forms/service.js';
import type { Service } from '../../src/service.js';
import { createTestClock, type TestClock } from './clock.js';
import { loadTestConfig, type TomlTable } from './config.js';
import { captureLogs, flushedFirst, type LogCapture } from './log-capture.js';
import { createRecordingMailer, type RecordingMailer } from './recording-mailer.js';
import { createTempDir } from './temp-dir.js';

export interface TestFormsService {
  service: Service;
  app: FastifyInstance;
  config: Config;
  mailer: RecordingMailer;
  logs: LogCapture;
  clock: TestClock;
  dataDir: string;
  /** GET /metrics, parsed. */
  metrics(): Promise<{ totals: Record<string, number>; forms: Record<string, Record<string, number>> }>;
  /** Closes the app, runs the service's shutdown and removes the data_dir. */
  close(): Promise<void>;
}

export interface TestFormsOptions {
  /** The [[forms]] tables; default: one contact form at /contact allowing https://example.com. */
  forms?: TomlTable[];
  /** Extra top-level tables merged into the config (server, mail, site...). */
  extra?: TomlTable;
  /** Dependencies to replace; logger, mailer and clock default to the capture, recorder and test clock. */
  deps?: Partial<FormsServiceDeps>;
  /** Use this data_dir instead of a fresh temp one (it is not removed on close). */
  dataDir?: string;
}

export const TEST_ORIGIN = 'https://example.com';
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
  const captured = captureLogs();
  const mailer = createRecordingMailer();
  const clock = createTestClock();
  let config: Config;
  let service: Service;
  try {
    config = loadTestConfig(
      {
        data_dir: dataDir,
        ...extra,
        mail: { from: FROM_ADDRESS, to: OWNER_ADDRESS, ...((extra.mail as TomlTable | undefined) ?? {}) },
        forms: options.forms ?? [contactForm()],
      },
      dataDir,
    );
    service = await createFormsService(config, { logger: captured.logger, mailer, clock, ...options.deps });
  } catch (error) {
    // A rejected config or a failing start leaves no temp folder behind.
    await temp?.remove();
    throw error;
  }
  const logs = flushedFirst(captured, () => service.app.requestLog.flush());
  let closed = false;
  return {
    service,
    app: service.app,
    config,
    mailer,
    logs,
    clock,
    dataDir,
    async metrics() {
      const response = await service.app.inject({ method: 'GET', url: '/metrics' });
      return response.json();
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.app.close();
      await service.shutdown();
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
