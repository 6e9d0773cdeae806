// The inbox of /admin with a real Chromium against a real `postbox serve` (docs/admin.md "Inbox"):
// submissions made through the documented contact form appear newest first, a search finds one, the CSV
// export read back by csv-parse holds what was sent with formulas defused, and a deletion made while 20 other
// submissions arrive loses none of them and doubles none. axe-core checks the list, a submission and a search.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';
import { fillPlaceholders, loadSnippets } from './support/snippets.js';
import { startStaticSite, type StaticSite } from './support/static-site.js';

const THANKS = 'Thank you for your message';

let site: StaticSite | undefined;
after(() => site?.close());

const served = useServedBrowser(
  'e2e-admin-inbox',
  async (dir) => {
    site = await startStaticSite();
    return {
      data_dir: path.join(dir, 'data'),
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com' },
      forms: [
        {
          path: '/contact',
          type: 'contact',
          allowed_origins: [site.origin],
          archive: 'contact.jsonl',
          redirect_url: `${site.origin}/thanks.html`,
          rate_limit_per_hour: 0,
          receipt: false,
        },
      ],
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['forms'],
);

interface Sent {
  name: string;
  email: string;
  message: string;
}

/** The archive's lines, parsed. */
async function archived(dir: string): Promise<Array<Record<string, string>>> {
  const text = await readFile(path.join(dir, 'data', 'contact.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, string>);
}

test('a person reads, searches, exports and deletes submissions made through the contact form', { timeout: 120_000 }, async (t) => {
  const { dir, postbox, newPage } = served();
  const formsUrl = postbox.addresses.forms as string;
  const snippets = await loadSnippets();
  site!.put('/contact-form.html', `<!doctype html><html lang="en"><head><title>Contact</title></head><body>${fillPlaceholders(snippets['contact-form.html'], { site: site!.origin, forms: formsUrl, blog: formsUrl })}</body></html>`);
  site!.put('/thanks.html', `<!doctype html><html lang="en"><head><title>${THANKS}</title></head><body><h1>${THANKS}</h1></body></html>`);

  const marker = randomUUID().slice(0, 8);
  const sent: Sent[] = [
    { name: 'Ada Lovelace', email: `ada-${marker}@example.org`, message: `An engine for numbers, please. ${marker}` },
    { name: '=HYPERLINK("https://evil.example","click")', email: `eve-${marker}@example.org`, message: `@SUM(1+1) <script>alert("x")</script> ${marker}` },
    { name: '+1 Plus', email: `plus-${marker}@example.org`, message: `-2 minus, "quoted", and a comma ${marker}` },
  ];
  const page = await newPage(t);
  for (const submission of sent) {
    await page.goto(`${site!.origin}/contact-form.html`);
    await page.fill('#contact-name', submission.name);
    await page.fill('#contact-email', submission.email);
    await page.fill('#contact-message', submission.message);
    await Promise.all([page.waitForURL(`${site!.origin}/thanks.html`), page.click('button[type=submit]')]);
  }

  await page.goto(`${formsUrl}/admin/inbox`);
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${formsUrl}/admin/inbox`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  await Promise.all([page.waitForURL(`${formsUrl}/admin/inbox/contact`), page.getByRole('link', { name: '/contact', exact: true }).click()]);
  const rows = page.locator('table tbody tr');
  assert.equal(await rows.count(), 3);
  const emails = await rows.locator('td:nth-child(3)').allTextContents();
  assert.deepEqual(emails, sent.map((submission) => submission.email).reverse(), 'newest first');
  assert.equal(await page.locator('script').count(), 0, 'a submitted <script> is text');
  assert.match((await rows.nth(1).locator('td:nth-child(4)').textContent()) ?? '', /<script>alert\("x"\)<\/script>/);
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the inbox list');

  await page.getByLabel('Search').fill(`PLUS ${marker}`);
  await Promise.all([page.waitForURL(/\/admin\/inbox\/contact\?q=/), page.getByRole('button', { name: 'Search' }).click()]);
  assert.deepEqual(await page.locator('table tbody tr td:nth-child(3)').allTextContents(), [sent[2]!.email]);
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on a search result');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  assert.equal(download.suggestedFilename(), 'contact-submissions.csv');
  const csv = parse(await readFile((await download.path())!), { bom: true, columns: true }) as Array<Record<string, string>>;
  const unprefixed = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
  assert.equal(csv.length, 3);
  csv.forEach((row, index) => {
    for (const column of ['name', 'email', 'message'] as const) {
      assert.doesNotMatch(row[column]!, /^[=+\-@\t\r]/, `${column} of row ${index} cannot start a formula`);
      assert.equal(unprefixed(row[column]!), sent[index]![column], `${column} of row ${index}`);
    }
  });

  await page.goto(`${formsUrl}/admin/inbox/contact`);
  await Promise.all([page.waitForURL(/\/admin\/inbox\/contact\/\d+-[0-9a-f]{12}$/), rows.nth(2).getByRole('link').click()]);
  assert.match((await page.locator('main').textContent()) ?? '', new RegExp(`ada-${marker}@example\\.org`));
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on one submission');

  // Deleting asks first: the page names the submission, and its Delete button deletes.
  await Promise.all([page.waitForURL(/\/admin\/inbox\/contact\/\d+-[0-9a-f]{12}\/delete$/), page.getByRole('button', { name: 'Delete' }).click()]);
  assert.match((await page.locator('h1').textContent()) ?? '', /Delete this submission to \/contact\?/);
  assert.match((await page.locator('main').textContent()) ?? '', new RegExp(`ada-${marker}@example\\.org`));
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the question before deleting');

  // Ada's submission is deleted while 20 more are being posted.
  const concurrent = Array.from({ length: 20 }, (_, index) => ({ name: `Concurrent ${index}`, email: `c${index}-${marker}@example.org`, message: `Arriving during the deletion ${index} ${marker}` }));
  const posting = concurrent.map((submission) =>
    fetch(`${formsUrl}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site!.origin },
      body: new URLSearchParams({ ...submission, website: '' }).toString(),
      redirect: 'manual',
    }),
  );
  await Promise.all([page.waitForURL(`${formsUrl}/admin/inbox/contact?notice=deleted`), page.getByRole('button', { name: 'Delete' }).click()]);
  for (const response of await Promise.all(posting)) assert.equal(response.status, 303);
  assert.match((await page.getByRole('status').textContent()) ?? '', /The submission was deleted\./);

  const lines = await archived(dir);
  const expected = [...sent.slice(1), ...concurrent].map((submission) => submission.email).sort();
  assert.deepEqual(lines.map((line) => line.email).sort(), expected, 'the 20 and the remaining ones, each once');
  assert.ok(lines.slice(0, 2).every((line, index) => line.email === sent[index + 1]!.email), 'the older lines keep their order');
  const logged = postbox.logs.filter((line) => line.event === 'admin_submission_deleted');
  assert.equal(logged.length, 1);
  assert.equal(logged[0]!.form, '/contact');
  assert.ok(!JSON.stringify(logged[0]).includes(marker), 'no personal data in the log line');
});
