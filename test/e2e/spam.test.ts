// Proof of work in a real Chromium against a real `postbox serve` (docs/spam.md, docs/embedding.md "Proof of work
// against bots"): the page on another origin loads the widget from /altcha.js, the widget solves the form's
// challenge, the visitor takes a person's time and the message arrives; a bot without a solution, a replayed solution
// and a solution sent at once after its challenge are answered like a person and quarantined, and nothing of them
// is delivered. axe-core runs on both pages. The services run on the test's clock: a person's time is the clock moved
// by `min_seconds`, and "at once" is the clock not moved at all, however long Chromium takes to solve the challenge.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe.js';
import { THANKS_TITLE, useEnvironmentOnClock } from './support/environment.js';
import { createTestClock } from '../support/clock.js';
import { isAddressedTo } from '../support/smtp-server.js';
import { waitFor } from '../support/wait.js';

const OWNER = 'owner@example.com';
/** `min_seconds` of the forms in docs/embedding.md's config (the default). */
const MIN_SECONDS = 3;
// The services' clock, started at the real time (the blog's posts are dated): it moves only when a test moves it.
const clock = createTestClock(Date.now());
const environment = useEnvironmentOnClock(clock);

/** Loads `page` of the site and waits until the widget put a verified solution in the form; returns the solution. */
async function loadSolved(page: Page, url: string, formPath: string): Promise<string> {
  const { formsUrl } = environment();
  const challenge = page.waitForResponse((response) => response.url() === `${formsUrl}${formPath}/challenge`);
  await page.goto(url);
  const answer = await challenge;
  assert.equal(answer.status(), 200);
  assert.equal(answer.headers()['cache-control'], 'no-store');
  await page.waitForFunction(() => (document.querySelector('input[name="altcha"]') as HTMLInputElement | null)?.value, null, { timeout: 30_000 });
  return page.evaluate(() => (document.querySelector('input[name="altcha"]') as HTMLInputElement).value);
}

/** A person reads and types for `min_seconds` at least after the challenge came: the services' clock moves that far. */
function takeAPersonsTime(): void {
  clock.advance(MIN_SECONDS * 1000);
}

/** Posts JSON to a form as a script would, from the allowed origin. */
async function post(formPath: string, fields: Record<string, string>): Promise<Response> {
  const { formsUrl, site } = environment();
  return fetch(`${formsUrl}${formPath}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: site.origin }, body: JSON.stringify(fields) });
}

type SpamCounters = Record<'spam_quarantined' | 'spam_proof_of_work' | 'spam_too_fast' | 'spam_replayed' | 'queued' | 'sent', number>;

async function counters(formPath: string): Promise<SpamCounters> {
  return (await environment().metrics()).forms[formPath] as unknown as SpamCounters;
}

test('the plain form: the widget from /altcha.js solves the challenge, the visitor waits like a person, and the message arrives', { timeout: 90_000 }, async (t) => {
  const { site, formsUrl, smtp, newPage } = environment();
  const marker = randomUUID();
  const page = await newPage(t);
  const widget = page.waitForResponse((response) => response.url() === `${formsUrl}/altcha.js`);
  await loadSolved(page, `${site.origin}/contact-pow.html`, '/contact-pow');
  const widgetAnswer = await widget;
  assert.equal(widgetAnswer.headers()['cross-origin-resource-policy'], 'cross-origin');
  assert.equal(widgetAnswer.headers()['cache-control'], 'public, max-age=3600', 'kept an hour: /altcha.js keeps its address across versions');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the page with the widget');

  await page.fill('#pow-name', 'Ada Lovelace');
  await page.fill('#pow-email', `ada-${marker}@example.org`);
  await page.fill('#pow-message', `I would like a website for my engine. ${marker}`);
  takeAPersonsTime();
  const [request] = await Promise.all([
    page.waitForRequest((candidate) => candidate.url() === `${formsUrl}/contact-pow` && candidate.method() === 'POST'),
    page.waitForURL(`${site.origin}/thanks.html`),
    page.click('button[type=submit]'),
  ]);
  assert.match(request.postData() ?? '', /(^|&)altcha=/, 'the solution travels in the altcha field');
  assert.equal(await page.locator('h1').textContent(), THANKS_TITLE);
  const received = await smtp.waitForMessage('owner mail of the proof-of-work form', (mail) => isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(marker));
  assert.ok(!(received.parsed.text ?? '').includes('altcha'), 'the solution is not part of the mail');
});

test('the fetch form waits for the widget and sends its solution; the message arrives', { timeout: 90_000 }, async (t) => {
  const { site, formsUrl, smtp, newPage } = environment();
  const marker = randomUUID();
  const page = await newPage(t);
  await loadSolved(page, `${site.origin}/contact-pow-fetch.html`, '/contact-pow-js');
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the fetch page with the widget');
  await page.fill('#pow-js-name', 'Grace Hopper');
  await page.fill('#pow-js-email', `grace-${marker}@example.org`);
  await page.fill('#pow-js-message', `Please debug my compiler. ${marker}`);
  takeAPersonsTime();
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${formsUrl}/contact-pow-js` && candidate.request().method() === 'POST'),
    page.click('#pow-js button[type=submit]'),
  ]);
  assert.equal(response.status(), 200);
  assert.equal(typeof JSON.parse(response.request().postData() ?? '{}').altcha, 'string');
  await page.locator('#pow-js .form-status', { hasText: 'Thank you!' }).waitFor();
  await smtp.waitForMessage('owner mail of the fetch proof-of-work form', (mail) => isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(marker));
});

test('a bot without a solution, a replayed solution and one sent at once are told what a person is told, quarantined and counted', { timeout: 90_000 }, async (t) => {
  const { site, newPage } = environment();
  const form = '/contact-pow-js';
  const fields = (marker: string) => ({ name: 'Bot', email: `bot-${marker}@example.org`, message: `Buy cheap things here, friend. ${marker}` });
  const before = await counters(form);

  // No solution at all.
  const none = await post(form, fields(randomUUID()));
  assert.equal(none.status, 200);
  assert.deepEqual(await none.json(), { ok: true });

  // A solution sent at once after its challenge (the clock has not moved since it was issued): the time trap.
  const page = await newPage(t);
  const fast = await loadSolved(page, `${site.origin}/contact-pow-fetch.html`, form);
  const atOnce = await post(form, { ...fields(randomUUID()), altcha: fast });
  assert.deepEqual(await atOnce.json(), { ok: true });

  // A good solution, used twice after a person's wait: the first delivers, the second is a replay.
  await page.reload();
  const good = await loadSolved(page, `${site.origin}/contact-pow-fetch.html`, form);
  takeAPersonsTime();
  const first = await post(form, { ...fields(randomUUID()), altcha: good });
  assert.deepEqual(await first.json(), { ok: true });
  const again = await post(form, { ...fields(randomUUID()), altcha: good });
  assert.equal(again.status, 200);
  assert.deepEqual(await again.json(), { ok: true });

  const after = await counters(form);
  assert.equal(after.spam_quarantined - before.spam_quarantined, 3, 'none, too fast and replayed are quarantined');
  assert.equal(after.spam_proof_of_work - before.spam_proof_of_work, 1);
  assert.equal(after.spam_too_fast - before.spam_too_fast, 1);
  assert.equal(after.spam_replayed - before.spam_replayed, 1);
  // Only the one good submission reached the queue: its owner mail and its receipt.
  assert.equal(after.queued - before.queued, 2, 'nothing of the quarantined submissions was queued');
  await waitFor('the good one’s owner mail to be sent', async () => ((await counters(form)).sent - before.sent === 1 ? true : undefined));
});
