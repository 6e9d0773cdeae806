// axe-core in a real Chromium on the preference page (docs/newsletter.md "Preferences"), served by the forms service
// on a loopback socket: the lists with a description, a private list the address is on, the notice after a save,
// and the page of a bad link. No serious or critical violation on any of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../../e2e/support/axe.js';
import { launchChromium } from '../../e2e/support/browser.js';
import { createTestFormsService, TEST_ORIGIN, type TestFormsService } from '../../support/forms-app.js';
import { tokenOf } from '../../support/newsletter.js';

describe('the preference page in Chromium', () => {
  let browser: Browser;
  let forms: TestFormsService;
  let base: string;
  let preferences: string;
  let stop: () => Promise<void>;

  before(async () => {
    forms = await createTestFormsService({
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], lists: ['newsletter', 'weekly', 'staff'] }],
      extra: {
        server: { public_url: 'https://forms.example.com' },
        site: { title: 'Ada & Co', base_url: 'https://blog.example.com' },
        newsletter: { lists: [{ id: 'weekly', name: 'The weekly', description: 'Every Monday, the posts of the week.' }, { id: 'staff', name: 'Staff notes', public: false }] },
      },
    });
    const signup = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'ada@example.org', lists: ['weekly', 'staff'] }) });
    assert.equal(signup.statusCode, 200);
    assert.equal((await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${tokenOf(forms.mailer.sent.at(-1))}` })).statusCode, 200);
    preferences = (await forms.core.newsletter.preferences.linkFor('ada@example.org')).slice('https://forms.example.com'.length);
    const server = await forms.app.listen();
    base = server.address;
    stop = async () => {
      await server.close(0);
      await forms.close();
    };
    browser = await launchChromium();
  }, { timeout: 120_000 });

  after(async () => {
    await browser?.close();
    await stop?.();
  });

  it('finds no serious or critical violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      assert.equal((await page.goto(`${base}${preferences}`))?.status(), 200);
      assert.deepEqual(await seriousViolations(page), [], 'the lists');
      // Untick the weekly letter by its label, as a person would, and save.
      await page.getByLabel('The weekly').uncheck();
      await page.getByRole('button', { name: 'Save my choices' }).click();
      await page.getByRole('status').waitFor();
      assert.equal(await page.getByLabel('The weekly').isChecked(), false);
      assert.deepEqual(await seriousViolations(page), [], 'after a save');
      assert.equal((await page.goto(`${base}/newsletter/preferences?token=nope`))?.status(), 400);
      assert.deepEqual(await seriousViolations(page), [], 'a bad link');
    } finally {
      await context.close();
    }
  });
});
