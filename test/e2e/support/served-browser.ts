// For an e2e file of its own: a temp folder, `postbox serve` on the configuration built in it, and Chromium,
// made before the file's tests and removed after them. `newPage(t)` opens a fresh browser context per test.
import { after, before, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { writeConfigFile, type TomlTable } from '../../support/config.js';
import { startPostboxServe, type ServeProcess } from '../../support/postbox-process.js';
import { createTempDir } from '../../support/temp-dir.js';
import { launchChromium } from './browser.js';

export interface ServedBrowser {
  /** The temp folder (the config file is in it). */
  dir: string;
  postbox: ServeProcess;
  browser: Browser;
  /** A page in a context of its own, closed after the test; actions wait at most 15 s. */
  newPage(t: TestContext): Promise<Page>;
}

/** Registers the before/after hooks; the returned function gives the running parts inside a test. */
export function useServedBrowser(name: string, configOf: (dir: string) => TomlTable | Promise<TomlTable>, services: string[]): () => ServedBrowser {
  let served: ServedBrowser | undefined;
  let remove: (() => Promise<void>) | undefined;
  before(async () => {
    const temp = await createTempDir(name);
    remove = temp.remove;
    const postbox = await startPostboxServe(await writeConfigFile(temp.dir, await configOf(temp.dir)), services);
    const browser = await launchChromium().catch(async (error: unknown) => {
      await postbox.stop();
      throw error;
    });
    served = {
      dir: temp.dir,
      postbox,
      browser,
      async newPage(t) {
        const context = await browser.newContext();
        t.after(() => context.close());
        context.setDefaultTimeout(15_000);
        return context.newPage();
      },
    };
  }, { timeout: 120_000 });
  after(async () => {
    await served?.browser.close();
    await served?.postbox.stop();
    await remove?.();
  });
  return () => {
    if (!served) throw new Error(`${name}: the served browser did not start`);
    return served;
  };
}
