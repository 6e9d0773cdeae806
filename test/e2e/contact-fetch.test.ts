// The fetch contact form of docs/embedding.md in a real browser: CORS preflight, {ok:true}, field errors,
// and the same page on an origin that is not allowed.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { waitFor } from '../support/wait.js';
import { test } from 'node:test';
import { useEnvironment } from './support/environment.js';
import { isRequestLine } from '../support/postbox-process.js';
import { isAddressedTo } from '../support/smtp-server.js';

const OWNER = 'owner@example.com';
const environment = useEnvironment();

test('the script posts JSON after a CORS preflight, reads {ok:true} and thanks the visitor', { timeout: 60_000 }, async (t) => {
  const { site, formsUrl, smtp, postbox, newPage } = environment();
  const marker = randomUUID();
  const since = postbox.logs.length;
  const page = await newPage(t);
  await page.goto(`${site.origin}/contact-fetch.html`);
  await page.fill('#contact-js-name', 'Katherine Johnson');
  await page.fill('#contact-js-email', `katherine-${marker}@example.org`);
  await page.fill('#contact-js-message', `Could you compute a trajectory for me? ${marker}`);

  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${formsUrl}/contact-js` && candidate.request().method() === 'POST'),
    page.click('#contact-js button[type=submit]'),
  ]);
  const headers = await response.request().allHeaders();
  assert.match(headers['content-type'] ?? '', /^application\/json/);
  assert.equal(headers.origin, site.origin);
  assert.deepEqual(JSON.parse(response.request().postData() ?? ''), {
    name: 'Katherine Johnson',
    email: `katherine-${marker}@example.org`,
    message: `Could you compute a trajectory for me? ${marker}`,
    website: '',
    _page: '/contact-fetch.html',
  });
  assert.equal(response.status(), 200);
  assert.deepEqual(await response.json(), { ok: true });
  assert.equal(response.headers()['access-control-allow-origin'], site.origin);

  const status = page.locator('#contact-js .form-status');
  await page.locator('#contact-js .form-status', { hasText: 'Thank you!' }).waitFor();
  assert.equal(await status.textContent(), 'Thank you! Your message has been sent.');
  assert.equal(await page.inputValue('#contact-js-name'), '', 'the form was reset');

  const preflight = await postbox.waitForLog('the preflight', (line) => isRequestLine(line, 'OPTIONS', '/contact-js', 204), { since });
  const post = await postbox.waitForLog('the POST', (line) => isRequestLine(line, 'POST', '/contact-js', 200), { since });
  assert.ok(postbox.logs.indexOf(preflight) < postbox.logs.indexOf(post), 'the preflight came before the POST');

  const received = await smtp.waitForMessage('owner mail of the fetch form', (mail) =>
    isAddressedTo(mail, OWNER) && (mail.parsed.text ?? '').includes(marker),
  );
  assert.match(received.parsed.text ?? '', /Katherine Johnson/);
  // The page a conversion counts for (docs/analytics.md) is not part of the message.
  assert.doesNotMatch(received.parsed.text ?? '', /contact-fetch\.html/);
});

test('the script shows the details of a 400 validation next to their inputs, and clears them on success', { timeout: 60_000 }, async (t) => {
  const { site, formsUrl, newPage } = environment();
  const page = await newPage(t);
  await page.goto(`${site.origin}/contact-fetch.html`);
  await page.fill('#contact-js-name', 'A');
  await page.fill('#contact-js-email', 'not an address');
  await page.fill('#contact-js-message', 'Too short');

  const isPost = (candidate: { url(): string; request(): { method(): string } }) =>
    candidate.url() === `${formsUrl}/contact-js` && candidate.request().method() === 'POST';
  const [response] = await Promise.all([page.waitForResponse(isPost), page.click('#contact-js button[type=submit]')]);
  assert.equal(response.status(), 400);
  const answer = (await response.json()) as { error: string; details: { field: string; message: string }[] };
  assert.equal(answer.error, 'validation');
  assert.deepEqual(answer.details.map((detail) => detail.field), ['name', 'email', 'message']);

  await page.locator('#contact-js .form-status', { hasText: 'Please correct the marked fields.' }).waitFor();
  for (const { field, message } of answer.details) {
    assert.ok(message.length > 0);
    const slot = page.locator(`#contact-js-${field}-error`);
    assert.equal(await slot.textContent(), message, `the ${field} message is shown next to its input`);
    assert.ok(await slot.isVisible());
    assert.equal(await page.getAttribute(`#contact-js-${field}`, 'aria-invalid'), 'true');
  }

  await page.fill('#contact-js-name', 'Ada Lovelace');
  await page.fill('#contact-js-email', 'ada@example.org');
  await page.fill('#contact-js-message', 'Now the message is long enough.');
  const [second] = await Promise.all([page.waitForResponse(isPost), page.click('#contact-js button[type=submit]')]);
  assert.equal(second.status(), 200);
  await page.locator('#contact-js .form-status', { hasText: 'Thank you!' }).waitFor();
  for (const field of ['name', 'email', 'message']) {
    assert.equal(await page.locator(`#contact-js-${field}-error`).textContent(), '', `the ${field} message is cleared`);
    assert.equal(await page.getAttribute(`#contact-js-${field}`, 'aria-invalid'), null);
  }
});

test('from an origin that is not allowed the browser blocks the post: fetch rejects and no mail is sent', { timeout: 60_000 }, async (t) => {
  const { foreignSite, formsUrl, smtp, postbox, metrics, newPage } = environment();
  const marker = randomUUID();
  const submitter = `mallory-${marker}@example.org`;
  const since = postbox.logs.length;
  // The earlier tests' mails leave the queue (and count as sent) in their own time: wait for them first.
  const before = await waitFor('the queue to empty', async () => {
    const now = await metrics();
    return ((now as { queue?: { pending: number } }).queue?.pending ?? 0) === 0 ? now : undefined;
  });
  const page = await newPage(t);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(`${foreignSite.origin}/contact-fetch.html`);
  await page.fill('#contact-js-name', 'Mallory');
  await page.fill('#contact-js-email', submitter);
  await page.fill('#contact-js-message', `Posting from a page that is not allowed. ${marker}`);

  const [failed] = await Promise.all([
    page.waitForEvent('requestfailed', (request) => request.url() === `${formsUrl}/contact-js` && request.method() === 'POST'),
    page.click('#contact-js button[type=submit]'),
  ]);
  assert.ok(failed.failure(), 'the browser failed the request');
  await page.locator('#contact-js .form-status', { hasText: 'could not be sent' }).waitFor();
  assert.equal(await page.locator('#contact-js .form-status').textContent(), 'Your message could not be sent. Please try again later.');
  assert.ok(consoleErrors.some((text) => /blocked by CORS policy/.test(text)), `the browser reports CORS: ${consoleErrors.join(' | ')}`);

  const preflight = await postbox.waitForLog('the refused preflight', (line) => isRequestLine(line, 'OPTIONS', '/contact-js', 403), { since });
  // Only lines after the refused preflight can be this page's POST: the previous test's POST line may still
  // have been on its way through the child's stdout when `since` was taken.
  const afterPreflight = postbox.logs.slice(postbox.logs.indexOf(preflight) + 1);
  assert.ok(!afterPreflight.some((line) => isRequestLine(line, 'POST', '/contact-js')), 'the POST never left the browser');
  const afterwards = await metrics();
  assert.equal(afterwards.forms['/contact-js']?.received, before.forms['/contact-js']?.received);
  assert.equal(afterwards.totals.sent, before.totals.sent);
  assert.ok(!smtp.received.some((mail) => (mail.parsed.text ?? '').includes(marker) || isAddressedTo(mail, submitter)), 'no mail was sent');
});
