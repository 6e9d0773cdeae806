// Without chromium the e2e tests must fail and say how to install it: CI never skips them silently.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchChromium } from './support/browser.js';

test('a missing chromium fails with the command that installs it', async () => {
  await assert.rejects(launchChromium('/nonexistent/chromium'), /missing: install it with: apt-get install chromium/);
});
