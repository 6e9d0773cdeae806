// The newsletter (src/forms/newsletter) built over a temp data_dir with the shared fakes: a recording mailer,
// a test clock, counting random bytes and captured logs. A thin layer over createNewsletter, nothing more.
import type { Config, NewsletterForm } from '../../src/config/config.js';
import { createJsonlAppender } from '../../src/kit/files/jsonl.js';
import { resolveSiteName } from '../../src/forms/notifications.js';
import { createMetrics, type Metrics } from '../../src/forms/metrics.js';
import type { Mailer, MailMessage } from '../../src/ports.js';
import { createNewsletter, type Newsletter, type NewsletterDeps } from '../../src/newsletter/index.js';
import type { RunningNewsletter } from '../../src/newsletter/flow.js';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { createTestClock, type TestClock } from './clock.js';
import { createFakeTimer, type FakeTimer } from './fake-timers.js';
import { loadTestConfig, type TomlTable } from './config.js';
import { captureLogs, type LogCapture } from './log-capture.js';
import { createCountingRandomBytes } from './random-bytes.js';
import { createRecordingMailer, type RecordingMailer } from './recording-mailer.js';
import { createTempDir } from './temp-dir.js';

export const NEWSLETTER_PUBLIC_URL = 'https://forms.example.com';

/** A config with one newsletter at /newsletter (or the given [[forms]] tables, and `extra` top-level tables), through the real loader. */
export function loadNewsletterConfig(dataDir: string, forms: TomlTable[] = [{ path: '/newsletter', type: 'newsletter' }], extra: TomlTable = {}): Config {
  return loadTestConfig(
    {
      data_dir: dataDir,
      server: { public_url: NEWSLETTER_PUBLIC_URL },
      mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
      forms,
      ...extra,
    },
    dataDir,
  );
}

/** The newsletter forms of `config`, in order. */
export function newsletterFormsOf(config: Config): NewsletterForm[] {
  return config.forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
}

/** Everything a newsletter test touches, over one temp data_dir. */
export interface TestNewsletter {
  /** With `settled()`: a confirmation mail is handed over after the signup is answered. */
  newsletter: RunningNewsletter;
  dataDir: string;
  config: Config;
  /** The first form of the config. */
  form: NewsletterForm;
  /** Every newsletter form of the config, in order. */
  forms: NewsletterForm[];
  mailer: RecordingMailer;
  metrics: Metrics;
  logs: LogCapture;
  clock: TestClock;
  /** The purge's schedule: fake time that only moves when the test advances it. */
  timers: FakeTimer;
  /** Closes the newsletter and builds a new one over the same folder, fakes and metrics. */
  restart(): Promise<Newsletter>;
  /** Closes the newsletter and removes the data_dir. */
  close(): Promise<void>;
}

/** Builds the newsletter for `forms` (default: one at /newsletter) and `extra` tables ([newsletter]); remember to `close()` it. */
export async function createTestNewsletter(forms?: TomlTable[], purgeIntervalMs?: number, extra?: TomlTable): Promise<TestNewsletter> {
  const { dir: dataDir, remove } = await createTempDir('newsletter');
  try {
    const config = loadNewsletterConfig(dataDir, forms, extra);
    const lists = config.newsletter.lists;
    const logs = captureLogs();
    const clock = createTestClock();
    const mailer = createRecordingMailer();
    const metrics = createMetrics(config.forms.map((form) => form.path));
    const randomBytes = createCountingRandomBytes();
    const newsletterForms = newsletterFormsOf(config);
    const appendLine = createJsonlAppender();
    const timers = createFakeTimer();
    const build = () =>
      createNewsletter({
        forms: newsletterForms,
        lists,
        automations: config.newsletter.automations,
        from: config.mail!.from,
        siteNameFor: (form) => resolveSiteName(config.site?.title, form, config.server.public_url),
        sendMail: sendMailNow(mailer),
        store: createFileNewsletterStore({ dataDir, forms: newsletterForms, lists: lists.map((list) => list.log), appendLine, randomBytes, logger: logs.logger }),
        metrics,
        logger: logs.logger,
        clock,
        randomBytes,
        purgeIntervalMs,
        timers,
      });
    const test: TestNewsletter = {
      newsletter: await build(),
      dataDir,
      config,
      form: newsletterForms[0]!,
      forms: newsletterForms,
      mailer,
      metrics,
      logs,
      clock,
      timers,
      async restart() {
        await test.newsletter.close();
        test.newsletter = await build();
        return test.newsletter;
      },
      async close() {
        await test.newsletter.close();
        await remove();
      },
    };
    return test;
  } catch (error) {
    // A rejected config or a failing start leaves no temp folder behind.
    await remove();
    throw error;
  }
}

/** The token in the confirmation link of `message`. */
export function tokenOf(message: MailMessage | undefined): string {
  const match = /\/confirm\?token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link in ${JSON.stringify(message?.text)}`);
  return match[1];
}

/** The metrics counters of `formPath` (default: the first form). */
export function counters(test: TestNewsletter, formPath = test.form.path) {
  return test.metrics.snapshot().forms[formPath];
}

/** `sendMail` straight through `mailer`: the mail goes out now (what the mail core does without the queue). */
export function sendMailNow(mailer: Mailer): NewsletterDeps['sendMail'] {
  return async (_formPath, _kind, mail) => {
    await mailer.send(mail);
    return 'sent';
  };
}
