// Fakes and helpers for the newsletter tests: a recording mailer, a settable clock, a deterministic random
// source, captured log lines, a temp data folder and a newsletter built over them.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configSchema, type Config, type FormConfig } from '../../../src/config/schema.js';
import { createLogger } from '../../../src/log.js';
import { createMetrics, type Metrics } from '../../../src/forms/metrics.js';
import type { MailMessage, Mailer } from '../../../src/forms/ports.js';
import { createNewsletter, type Newsletter } from '../../../src/forms/newsletter/index.js';

export const PUBLIC_URL = 'https://forms.example.com';
export const START = Date.parse('2024-05-01T12:00:00.000Z');
export const HOUR = 3_600_000;

/** A mailer that records what it is given; `failNext` makes the next sends reject. */
export interface RecordingMailer extends Mailer {
  sent: MailMessage[];
  failures: number;
  /** Called inside send, before the message counts as sent (to look at the disk at that moment). */
  onSend?: (message: MailMessage) => Promise<void> | void;
}

export function recordingMailer(): RecordingMailer {
  const mailer: RecordingMailer = {
    sent: [],
    failures: 0,
    async send(message) {
      await mailer.onSend?.(message);
      if (mailer.failures > 0) {
        mailer.failures -= 1;
        throw Object.assign(new Error(`550 mailbox unavailable <${message.to}>`), { code: 'EENVELOPE' });
      }
      mailer.sent.push(message);
    },
    async close() {},
  };
  return mailer;
}

/** Distinct, reproducible bytes on every call. */
export function countingRandomBytes(): (count: number) => Buffer {
  let call = 0;
  return (count) => {
    call += 1;
    return Buffer.alloc(count, call);
  };
}

export function testConfig(dataDir: string, forms: Record<string, unknown>[] = [{ path: '/newsletter', type: 'newsletter' }]): Config {
  return configSchema.parse({
    data_dir: dataDir,
    server: { public_url: PUBLIC_URL },
    mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
    forms,
  });
}

/** Everything a test touches, over one temp data folder; `restart` builds a new newsletter over the same folder. */
export interface Harness {
  dataDir: string;
  config: Config;
  form: FormConfig;
  mailer: RecordingMailer;
  metrics: Metrics;
  logLines: string[];
  now: { value: number };
  newsletter: Newsletter;
  restart(): Promise<Newsletter>;
  cleanup(): Promise<void>;
}

export async function createHarness(forms?: Record<string, unknown>[], purgeIntervalMs?: number): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'postbox-newsletter-'));
  const config = testConfig(dataDir, forms);
  const logLines: string[] = [];
  const logger = createLogger({ write: (line: string) => void logLines.push(line) });
  const now = { value: START };
  const mailer = recordingMailer();
  const metrics = createMetrics(config.forms.map((form) => form.path));
  const randomBytes = countingRandomBytes();
  const build = () => createNewsletter({ config, mailer, metrics, logger, clock: () => now.value, randomBytes, purgeIntervalMs });
  const harness: Harness = {
    dataDir,
    config,
    form: config.forms[0] as FormConfig,
    mailer,
    metrics,
    logLines,
    now,
    newsletter: await build(),
    async restart() {
      await harness.newsletter.close();
      harness.newsletter = await build();
      return harness.newsletter;
    },
    async cleanup() {
      await harness.newsletter.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The token in the confirmation link of `message`. */
export function tokenOf(message: MailMessage | undefined): string {
  const match = /\/confirm\?token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in ${JSON.stringify(message?.text)}`);
  return match[1];
}

export async function readLines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function counters(harness: Harness, formPath = harness.form.path) {
  return harness.metrics.snapshot().forms[formPath];
}
