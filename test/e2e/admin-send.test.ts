// Sending a post from /admin with a real Chromium against a real `postbox serve` and a real SMTP server
// (docs/admin.md "Sending a post"): sign in, "Send to subscribers" on a published post, a test send that
// the server receives with its list headers, the confirmation with the number of subscribers, "Send now", and the
// campaign page following the send in place (its script, no reload) until it is finished. axe-core finds no serious
// or critical violation on any page on the way, the campaign page included while it sends, and the CSP no script.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { isAddressedTo, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';

const READERS = ['ann@example.org', 'bob@example.org', 'cy@example.org'];
const TESTER = 'editor@example.net';

let smtp: TestSmtpServer | undefined;
// The subscribers' mails wait at the server until the test has looked at the campaign page while it sends.
let releaseReaders: () => void = () => undefined;
const readersHeld = new Promise<void>((resolve) => {
  releaseReaders = resolve;
});
after(() => {
  releaseReaders();
  return smtp?.close();
});

const served = useServedBrowser(
  'e2e-admin-send',
  async (dir) => {
    smtp = await startSmtpServer({
      beforeAccept: async ({ recipients }) => {
        if (recipients.some((recipient) => READERS.includes(recipient))) await readersHeld;
        return true;
      },
    });
    const dataDir = path.join(dir, 'data');
    await mkdir(path.join(dir, 'posts'));
    await mkdir(dataDir);
    await writeFile(path.join(dir, 'posts', 'spring-news.md'), '+++\ntitle = "Spring news"\ndate = 2026-03-01\n+++\n\nThe garden is open again.\n');
    const subscribed = (email: string) =>
      `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), READERS.map(subscribed).join(''));
    return {
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'smtp', from: 'News <news@example.com>', to: 'owner@example.com', queue: true, send_per_minute: 0, smtp: { host: '127.0.0.1', port: smtp.port } },
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' }],
      site: { title: 'The Garden', base_url: 'https://example.com' },
      blog: { listen: '127.0.0.1:0', content_dir: path.join(dir, 'posts') },
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['forms', 'blog'],
);

function header(message: ReceivedMessage, name: string): string {
  const line = message.parsed.headerLines.find((entry) => entry.key === name.toLowerCase());
  return line ? line.line.slice(line.line.indexOf(':') + 1).trim() : '';
}

test('a person tests a post, confirms, and follows the campaign until every subscriber has it', { timeout: 120_000 }, async (t) => {
  const { postbox, newPage } = served();
  const server = smtp!;
  const blogUrl = postbox.addresses.blog as string;
  const page = await newPage(t);
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  const checkPage = async (name: string) => assert.deepEqual(await seriousViolations(page), [], `axe-core on ${name}`);

  await page.goto(`${blogUrl}/admin/posts`);
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  await checkPage('posts');

  await Promise.all([page.waitForURL(/\/admin\/newsletter\/send\?post=spring-news&lang=en$/), page.getByRole('link', { name: 'Send to subscribers' }).click()]);
  assert.match((await page.locator('main').textContent()) ?? '', /Spring news.*\/newsletter: 3 confirmed subscribers/s);
  await checkPage('send');

  await page.getByLabel('Test address').fill(TESTER);
  await Promise.all([page.waitForURL(/&test=[0-9a-f]+$/), page.getByRole('button', { name: 'Send test' }).click()]);
  assert.match((await page.getByRole('status').textContent()) ?? '', new RegExp(`Test sent to ${TESTER.replace('.', '\\.')}\\.`));
  await checkPage('send after the test');
  const tested = await server.waitForMessage('the test mail', (message) => isAddressedTo(message, TESTER));
  assert.equal(tested.parsed.subject, 'Spring news');
  assert.match(header(tested, 'List-Unsubscribe'), /^<https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=[^>]+>$/);
  assert.equal(header(tested, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  assert.ok(header(tested, 'List-Id'));
  assert.equal(server.received.length, 1, 'only the test went out');

  await Promise.all([page.waitForURL(/\/admin\/newsletter\/confirm\?/), page.getByRole('button', { name: 'Continue' }).click()]);
  assert.match((await page.locator('main').textContent()) ?? '', /Send "Spring news" \(en\) to 3 subscribers of \/newsletter\?/);
  await checkPage('confirmation');

  await Promise.all([page.waitForURL(/\/admin\/campaigns\/\d{8}T\d{6}Z-[0-9a-f]{4}$/), page.getByRole('button', { name: 'Send now' }).click()]);
  const campaignUrl = page.url();
  assert.match((await page.locator('main').textContent()) ?? '', /Waiting for the service to start it|Sending/);
  // Any navigation of the page from now on (a reload included) would be seen here, and would drop the marker.
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  await page.evaluate(() => {
    (window as unknown as { campaignMarker: string }).campaignMarker = 'still the first load';
  });
  const summary = page.getByRole('status');
  assert.equal(await summary.getAttribute('aria-live'), 'polite');
  assert.equal(await page.getByRole('link', { name: 'Refresh', exact: true }).getAttribute('href'), new URL(campaignUrl).pathname);
  // The subscribers' mails are held at the SMTP server: the campaign is sending, and stays so while axe-core looks.
  await page.getByText('Sending', { exact: true }).waitFor({ timeout: 30_000 });
  await checkPage('sending campaign');
  releaseReaders();
  // The script asks for the progress every 2 seconds and updates the page in place.
  await page.getByText('Finished', { exact: true }).waitFor({ timeout: 30_000 });
  assert.match((await page.getByRole('table').textContent()) ?? '', /SentFailedSkippedTotal3003$/);
  assert.equal(await page.getByLabel('Progress').evaluate((bar) => (bar as HTMLProgressElement).value), 3);
  assert.equal(await summary.textContent(), 'Finished: 3 of 3 done (3 sent, 0 failed, 0 skipped).');
  assert.equal(await page.getByRole('link', { name: 'Refresh', exact: true }).isVisible(), false, 'nothing to refresh once finished');
  assert.equal(await page.evaluate(() => (window as unknown as { campaignMarker?: string }).campaignMarker), 'still the first load');
  assert.deepEqual(navigations, [], 'the page never reloaded');
  assert.equal(page.url(), campaignUrl);
  await checkPage('finished campaign');

  const mails = await server.waitForMessages(4);
  assert.deepEqual(mails.slice(1).flatMap((message) => message.recipients).sort(), READERS);
  await Promise.all([page.waitForURL(`${blogUrl}/admin/campaigns`), page.getByRole('link', { name: 'Campaigns', exact: true }).click()]);
  assert.match((await page.getByRole('table').textContent()) ?? '', /Spring news.*en.*\/newsletter.*Finished3003/s);
  await checkPage('campaigns');
  assert.deepEqual(cspProblems, []);
  assert.deepEqual(scriptErrors, []);
  assert.ok(postbox.logs.some((line) => line.event === 'admin_campaign_started' && line.user === 'jane'));
});
