// Launches Debian's chromium for the end-to-end tests, failing (never skipping) when it is not installed.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; CI (`.ci/run`) installs it there. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A headless chromium with background traffic off, so the only network use is the test's own. */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `the end-to-end tests need Chromium at ${executablePath}, which is missing: install it with: apt-get install chromium`,
    );
  }
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 60_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
