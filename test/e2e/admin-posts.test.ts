// Writing a post in /admin with a real Chromium against a real `postbox serve` (docs/admin.md "Posts"): sign in,
// new post, image upload, preview, a date a few seconds ahead, publish; the post stays out of the API until its
// date and is listed within 2 seconds of it, with its image served and linked absolutely. axe-core runs on every
// admin page on the way, and no page may trip the Content-Security-Policy.
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';
import { waitFor } from '../support/wait.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');

const served = useServedBrowser(
  'e2e-admin-posts',
  async (dir) => {
    await mkdir(path.join(dir, 'posts'));
    return {
      data_dir: path.join(dir, 'data'),
      site: { title: 'Example', base_url: 'https://blog.example' },
      blog: { listen: '127.0.0.1:0', content_dir: path.join(dir, 'posts') },
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['blog'],
);

async function apiSlugs(blogUrl: string): Promise<string[]> {
  const body = (await (await fetch(`${blogUrl}/api/blog/posts`)).json()) as { posts: Array<{ slug: string }> };
  return body.posts.map((post) => post.slug);
}

test('a person writes a post with an image, previews it, schedules and publishes it; it appears at its date', { timeout: 120_000 }, async (t) => {
  const { dir, postbox, newPage } = served();
  const blogUrl = postbox.addresses.blog as string;
  const contentDir = path.join(dir, 'posts');
  const page = await newPage(t);
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });
  const checked: string[] = [];
  const checkPage = async (name: string) => {
    assert.deepEqual(await seriousViolations(page), [], `axe-core on ${name}`);
    checked.push(name);
  };

  await page.goto(`${blogUrl}/admin/posts`);
  await checkPage('sign-in');
  await page.getByLabel('Name').fill('jane');
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  assert.match(await page.locator('main').textContent() ?? '', /No posts yet/);
  await checkPage('posts');

  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts/new`), page.getByRole('link', { name: 'New post' }).click()]);
  await checkPage('new post');
  await page.getByLabel('Title').fill('Harbour notes');
  await page.getByLabel('Slug').fill('harbour');
  await page.getByLabel('Tags').fill('sea, boats');
  await page.getByLabel('Text (Markdown)').fill('Boats at dawn.');
  assert.equal(await page.getByLabel('Draft (not published)').isChecked(), true, 'a new post starts as a draft');
  await Promise.all([page.waitForURL(/\/admin\/posts\/edit\?file=harbour\.md/), page.getByRole('button', { name: 'Create' }).click()]);
  await checkPage('editor');

  await page.getByLabel(/^Image \(PNG, JPEG, GIF, WebP or AVIF/).setInputFiles({ name: 'boat.png', mimeType: 'image/png', buffer: PNG });
  await Promise.all([page.waitForURL(/file=harbour%2Findex\.md&notice=image&image=boat\.png/), page.getByRole('button', { name: 'Upload image' }).click()]);
  assert.match(await page.getByRole('status').textContent() ?? '', /!\[\]\(boat\.png\)/);

  await page.getByLabel('Text (Markdown)').fill('Boats at dawn.\n\n![A boat](boat.png)');
  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts/preview`), page.getByRole('button', { name: 'Preview' }).click()]);
  const frame = page.frameLocator('iframe[title="Preview of the post"]');
  assert.equal(await frame.locator('p').first().textContent(), 'Boats at dawn.');
  assert.match((await frame.locator('img').getAttribute('src')) ?? '', /^data:image\/png;base64,/);
  await checkPage('preview');

  // A date a few seconds ahead (whole seconds, as a person types it): the post is scheduled.
  const dateMs = Math.ceil((Date.now() + 6000) / 1000) * 1000;
  await page.getByLabel('Date', { exact: true }).fill(new Date(dateMs).toISOString().replace('.000Z', 'Z'));
  // The button sits below the preview frame: scrolled to first, as a person would.
  await page.getByRole('button', { name: 'Save', exact: true }).scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  await page.getByRole('button', { name: 'Publish' }).scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/notice=published/), page.getByRole('button', { name: 'Publish' }).click()]);
  await checkPage('editor after publishing');
  if (Date.now() < dateMs - 1000) assert.ok(!(await apiSlugs(blogUrl)).includes('harbour'), 'not listed before its date');

  // Listed by itself at its date, however busy the machine (test/blog/schedule.test.ts checks the moment on fake time).
  const listedAt = await waitFor('the post in /api/blog/posts', async () => ((await apiSlugs(blogUrl)).includes('harbour') ? Date.now() : undefined), 30_000, 50);
  assert.ok(listedAt >= dateMs, 'not listed before its date');
  const detail = (await (await fetch(`${blogUrl}/api/blog/posts/harbour`)).json()) as { html: string };
  assert.match(detail.html, /src="https:\/\/blog\.example\/api\/blog\/media\/harbour\/boat\.png"/);
  const image = await fetch(`${blogUrl}/api/blog/media/harbour/boat.png`);
  assert.equal(image.status, 200);
  assert.equal(image.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);

  await page.goto(`${blogUrl}/admin/posts`);
  assert.match(await page.locator('table').textContent() ?? '', /Harbour notes.*harbour.*Published/s);
  await checkPage('posts with the new post');

  // The two other kinds of admin page: a message (an upload without a file) and the conflict of a save over a
  // file that changed on disk meanwhile.
  await Promise.all([page.waitForURL(/edit\?file=harbour%2Findex\.md/), page.getByRole('link', { name: 'Harbour notes', exact: true }).click()]);
  await page.getByRole('button', { name: 'Upload image' }).scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/\/admin\/posts\/upload$/), page.getByRole('button', { name: 'Upload image' }).click()]);
  // The editor form goes along with the upload: it comes back with what was typed and the problem.
  assert.match((await page.locator('main').textContent()) ?? '', /No image was uploaded: choose an image file first\./);
  await checkPage('message');
  await page.goBack();
  // A change on disk to other lines than the person's (the browser sends the text with CRLF) is saved with it.
  await page.getByLabel('Title').fill('Harbour notes, revised');
  const onDisk = path.join(contentDir, 'harbour', 'index.md');
  await writeFile(onDisk, (await readFile(onDisk, 'utf8')).replace('Boats at dawn.', 'Boats at dusk.'));
  await page.getByRole('button', { name: 'Save', exact: true }).scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/notice=merged/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  assert.match(await readFile(onDisk, 'utf8'), /title = "Harbour notes, revised"[\s\S]*Boats at dusk\./);
  // A change on disk to the same line is the conflict page.
  await page.getByLabel('Title').fill('Harbour notes, mine');
  await writeFile(onDisk, (await readFile(onDisk, 'utf8')).replace('Harbour notes, revised', 'Harbour notes, by hand'));
  await page.getByRole('button', { name: 'Save', exact: true }).scrollIntoViewIfNeeded();
  await Promise.all([page.waitForURL(/\/admin\/posts\/save$/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'The post changed meanwhile');
  assert.match((await page.getByRole('region', { name: 'The version on disk now' }).textContent()) ?? '', /Harbour notes, by hand/);
  assert.match(await readFile(onDisk, 'utf8'), /title = "Harbour notes, by hand"/, 'nothing overwritten');
  await checkPage('conflict');
  assert.deepEqual(cspProblems, []);
  assert.ok(postbox.logs.some((line) => line.event === 'admin_post_published' && line.user === 'jane'));
  assert.equal(checked.length, 9);
});
