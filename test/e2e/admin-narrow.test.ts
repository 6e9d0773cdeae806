// Every owner's page of /admin on a phone-sized screen, in a real Chromium against a real `postbox serve`
// (docs/admin.md "How it looks"): at 390 CSS pixels no page scrolls sideways (wide tables scroll inside their own
// region, the header and navigation wrap), and axe-core finds no violation of any impact, at 390 and at 1280 px,
// in light and dark mode. With POSTBOX_SCREENSHOTS=<folder> it also saves the posts list and the dashboard there.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { useServedBrowser } from './support/served-browser.js';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** "<rule id> (<impact>): <help> at <targets>" for every violation axe-core finds on `page`, whatever its impact. */
async function allViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
}

const LONG_TITLE = 'A rather long title about harbours, boats, tides and the people who keep them afloat through the winter';

const served = useServedBrowser(
  'e2e-admin-narrow',
  async (dir) => {
    const dataDir = path.join(dir, 'data');
    const posts = path.join(dir, 'posts');
    await mkdir(path.join(dataDir, 'queue', 'failed'), { recursive: true });
    await mkdir(posts);
    for (let index = 0; index < 6; index += 1) {
      await writeFile(
        path.join(posts, `post-number-${index}-with-a-long-slug-that-does-not-wrap.md`),
        `+++\ntitle = "${index === 0 ? LONG_TITLE : `Post ${index}`}"\ndate = 2026-0${index + 1}-1${index}T09:30:00Z\ntags = ["sea", "boats"]\n${index === 2 ? 'draft = true\n' : ''}+++\nText ${index}.\n`,
      );
    }
    await writeFile(path.join(posts, 'later.md'), '+++\ntitle = "Later"\ndate = 2099-01-01\n+++\nLater.\n');
    await writeFile(path.join(posts, 'broken-post.md'), '+++\ntitle = "No date"\n+++\nBroken.\n');
    const subscribed = (email: string) => `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
    await writeFile(path.join(dataDir, 'subscribers.jsonl'), ['ann@example.org', 'a.very.long.address.of.somebody@subdomain.example.org'].map(subscribed).join(''));
    const now = Date.now();
    const failed = {
      id: 'msg_seeded_0',
      slot: 'seeded.0',
      created_at: now - 7_200_000,
      failed_at: now - 3_600_000,
      attempts: 6,
      last_error: 'smtp_550_mailbox_unavailable_because_of_a_long_reason',
      message: { channel: 'mail', form: '/contact', kind: 'owner', mail: { from: 'Forms <forms@example.com>', to: 'someone@example.net', subject: 'New message', text: 'Hi', autoSubmitted: 'auto-generated' } },
    };
    await writeFile(path.join(dataDir, 'queue', 'failed', 'msg_seeded_0.json'), JSON.stringify(failed));
    return {
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
      mail: { transport: 'file', from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: true },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
        { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
      ],
      site: { title: 'Example', base_url: 'https://blog.example' },
      blog: { listen: '127.0.0.1:0', content_dir: posts },
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false, time_zone: 'Europe/Berlin' },
    };
  },
  ['forms', 'blog'],
);

const PAGES = [
  ['dashboard', '/admin'],
  ['posts list', '/admin/posts'],
  ['inbox', '/admin/inbox'],
  ['inbox of /contact', '/admin/inbox/contact'],
  ['subscribers', '/admin/subscribers'],
  ['subscribers of /newsletter', '/admin/subscribers/newsletter'],
  ['failed mail', '/admin/failed'],
  ['campaigns', '/admin/campaigns'],
  ['users', '/admin/users'],
  ['audit', '/admin/audit'],
] as const;

test('at 390 px no admin page scrolls sideways, and axe-core finds nothing on any page', { timeout: 180_000 }, async (t) => {
  const { postbox, newPage } = served();
  const formsUrl = postbox.addresses.forms as string;
  const adminUrl = postbox.addresses.blog as string;
  for (let index = 0; index < 3; index += 1) {
    const response = await fetch(`${formsUrl}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Writer with a long name ${index}`, email: `a.long.address.${index}@subdomain.example.org`, message: `Message number ${index}: ${'words '.repeat(30)}` }),
    });
    assert.equal(response.status, 200, await response.text());
  }

  const page = await newPage(t);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${adminUrl}/admin/login`);
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${adminUrl}/admin`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  // The users pages write an audit event: one row for the audit page.
  await page.goto(`${adminUrl}/admin/users`);
  await page.locator('#invite-name').fill('walt');
  await Promise.all([page.waitForURL(/\/admin\/users\/invite$/), page.getByRole('button', { name: 'Invite' }).click()]);

  const screenshots = process.env.POSTBOX_SCREENSHOTS;
  const wide: string[] = [];
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const [name, pagePath] of PAGES) {
        const answer = await page.goto(`${adminUrl}${pagePath}`);
        assert.equal(answer?.status(), 200, `${name} answers`);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) wide.push(`${name} at ${width} px (${scheme}): ${scrollWidth} px wide`);
        problems.push(...(await allViolations(page)).map((violation) => `${name} at ${width} px (${scheme}): ${violation}`));
        if (screenshots && scheme === 'light' && (pagePath === '/admin' || pagePath === '/admin/posts')) {
          const file = `admin-look-${pagePath === '/admin' ? 'dashboard' : 'posts'}-${width}.png`;
          await page.screenshot({ path: path.join(screenshots, file), clip: { x: 0, y: 0, width, height: width === 390 ? 844 : 800 } });
        }
      }
    }
  }
  assert.deepEqual(wide, [], 'no page scrolls sideways');
  assert.deepEqual(problems, [], 'axe-core');

  // Times are in [admin] time_zone, and the posts list marks a broken post with text, not colour alone.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${adminUrl}/admin/posts`);
  assert.match((await page.locator('tr', { hasText: 'Post 1' }).locator('time').textContent()) ?? '', /^11 Feb 2026, 10:30$/);
  assert.match((await page.locator('tr', { hasText: 'broken-post.md' }).textContent()) ?? '', /Broken.*date/i);
});
