// Everything one e2e test file needs: SMTP sink, two page origins, a real `postbox serve`, and chromium. A file that
// moves time itself runs the same services in its own process on its clock instead (useEnvironmentOnClock).
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { launchChromium } from './browser.js';
import { startServices } from '../../../src/cli/serve.js';
import { loadConfigFile } from '../../../src/config/load.js';
import type { Clock } from '../../../src/ports.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { REPO_ROOT, startPostboxServe, type ServeProcess } from '../../support/postbox-process.js';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { createTempDir } from '../../support/temp-dir.js';
import { fillPlaceholders, loadSnippets, PLACEHOLDERS, SNIPPET_NAMES } from './snippets.js';
import { htmlPage, startStaticSite, type StaticSite } from './static-site.js';

/** The example posts the blog serves in the tests. */
export const POSTS_FIXTURE = path.join(REPO_ROOT, 'test/fixtures/e2e/posts');

/** The title of the page the plain form's `redirect_url` leads to. */
export const THANKS_TITLE = 'Thank you for your message';

interface EnvironmentParts {
  /** The site whose origin the config allows (the placeholder https://www.example.com). */
  site: StaticSite;
  /** A second site serving the same pages from an origin that is in no allow-list. */
  foreignSite: StaticSite;
  smtp: TestSmtpServer;
  formsUrl: string;
  blogUrl: string;
  dataDir: string;
  browser: Browser;
  /** A fresh browser context and page, closed when the test ends. */
  newPage(t: TestContext): Promise<Page>;
  /** GET /metrics of the forms service. */
  metrics(): Promise<{ totals: Record<string, number>; forms: Record<string, Record<string, number>> }>;
  close(): Promise<void>;
}

/** The services run as `postbox serve`, a process of their own. */
export interface E2eEnvironment extends EnvironmentParts {
  postbox: ServeProcess;
}

/** The services run in the test's process on the test's clock; their log lines are captured. */
export interface E2eEnvironmentOnClock extends EnvironmentParts {
  logs: LogCapture;
}

/** Starts the forms and blog services of a config file; what it gives beyond their addresses joins the environment. */
type ServicesStarter<Own> = (configFile: string) => Promise<{ addresses: Record<string, string>; stop(): Promise<unknown>; own: Own }>;

const asProcess: ServicesStarter<{ postbox: ServeProcess }> = async (configFile) => {
  const postbox = await startPostboxServe(configFile, ['forms', 'blog']);
  return { addresses: postbox.addresses, stop: () => postbox.stop(), own: { postbox } };
};

/** The services as `postbox serve` builds them (startServices), in this process, with `clock` for every time they read. */
function inThisProcess(clock: Clock): ServicesStarter<{ logs: LogCapture }> {
  return async (configFile) => {
    const loaded = await loadConfigFile(configFile, process.env);
    if (!loaded.ok) throw new Error(`the e2e configuration does not load: ${JSON.stringify(loaded.problems)}`);
    const logs = captureLogs();
    const running = await startServices(loaded.config, { logger: logs.logger, requestLog: logs.requestLog, clock });
    return { addresses: running.addresses, stop: () => running.stop(), own: { logs } };
  };
}

type Table = Record<string, unknown>;

/** The doc's config.toml with the test's addresses: only listen addresses, folders and SMTP differ. */
export function createTestConfig(
  snippet: string,
  options: { siteOrigin: string; dataDir: string; contentDir: string; smtpPort: number },
): string {
  const config = parseToml(snippet.replaceAll(PLACEHOLDERS.site, options.siteOrigin)) as Table;
  const server = config.server as Table;
  const mail = config.mail as Table;
  const blog = config.blog as Table;
  config.data_dir = options.dataDir;
  server.listen = '127.0.0.1:0';
  mail.smtp = { host: '127.0.0.1', port: options.smtpPort, secure: false };
  blog.listen = '127.0.0.1:0';
  blog.content_dir = options.contentDir;
  return stringifyToml(config);
}

/** Starts the whole environment; whatever started is stopped again if a later step fails. */
export function startEnvironment(): Promise<E2eEnvironment> {
  return startEnvironmentWith(asProcess);
}

async function startEnvironmentWith<Own>(startServicesOf: ServicesStarter<Own>): Promise<EnvironmentParts & Own> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const failures: unknown[] = [];
    for (const closer of closers.reverse()) await closer().catch((error: unknown) => failures.push(error));
    closers.length = 0;
    if (failures.length > 0) throw new AggregateError(failures, 'closing the e2e environment failed');
  };
  try {
    const snippets = await loadSnippets();
    const { dir: root, remove } = await createTempDir('e2e');
    closers.push(remove);
    const dataDir = path.join(root, 'data');
    const contentDir = path.join(root, 'posts');
    await cp(POSTS_FIXTURE, contentDir, { recursive: true });

    const smtp = await startSmtpServer();
    closers.push(() => smtp.close());
    const site = await startStaticSite();
    closers.push(() => site.close());
    const foreignSite = await startStaticSite();
    closers.push(() => foreignSite.close());

    const configFile = path.join(root, 'config.toml');
    const config = createTestConfig(snippets['config.toml'], { siteOrigin: site.origin, dataDir, contentDir, smtpPort: smtp.port });
    await writeFile(configFile, config);
    const services = await startServicesOf(configFile);
    closers.push(() => services.stop());
    const formsUrl = services.addresses.forms as string;
    const blogUrl = services.addresses.blog as string;

    for (const served of [site, foreignSite]) {
      for (const name of SNIPPET_NAMES.filter((snippet) => snippet.endsWith('.html'))) {
        const body = fillPlaceholders(snippets[name], { site: served.origin, forms: formsUrl, blog: blogUrl });
        served.put(`/${name}`, htmlPage(name, body));
      }
      served.put('/thanks.html', htmlPage(THANKS_TITLE, '<p>We will answer soon.</p>'));
    }

    const browser = await launchChromium();
    closers.push(() => browser.close());

    return {
      ...services.own,
      site,
      foreignSite,
      smtp,
      formsUrl,
      blogUrl,
      dataDir,
      browser,
      async newPage(t) {
        const context = await browser.newContext();
        t.after(() => context.close());
        context.setDefaultTimeout(15_000);
        context.setDefaultNavigationTimeout(15_000);
        return context.newPage();
      },
      async metrics() {
        const response = await fetch(`${formsUrl}/metrics`);
        if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
        return (await response.json()) as Awaited<ReturnType<EnvironmentParts['metrics']>>;
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Starts the environment before the file's tests and closes it after them, even when a test failed. */
export function useEnvironment(): () => E2eEnvironment {
  return useEnvironmentWith(asProcess);
}

/**
 * The same, with the services in this process reading `clock`: a test that depends on time (the spam time trap)
 * moves the clock instead of waiting for it.
 */
export function useEnvironmentOnClock(clock: Clock): () => E2eEnvironmentOnClock {
  return useEnvironmentWith(inThisProcess(clock));
}

function useEnvironmentWith<Own>(startServicesOf: ServicesStarter<Own>): () => EnvironmentParts & Own {
  let environment: (EnvironmentParts & Own) | undefined;
  before(async () => {
    environment = await startEnvironmentWith(startServicesOf);
  }, { timeout: 120_000 });
  after(async () => {
    await environment?.close();
  });
  return () => {
    if (!environment) throw new Error('the e2e environment did not start');
    return environment;
  };
}
