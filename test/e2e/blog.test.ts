// The latest-posts snippet of docs/embedding.md in a real browser: the blog API and the JSON Feed read
// cross-origin by a page on the site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useEnvironment } from './support/environment.js';

const environment = useEnvironment();

test('the page lists the published posts from the blog API, newest first, read cross-origin', { timeout: 60_000 }, async (t) => {
  const { site, blogUrl, newPage } = environment();
  const page = await newPage(t);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url().startsWith(`${blogUrl}/api/blog/posts`)),
    page.goto(`${site.origin}/latest-posts.html`),
  ]);
  assert.equal(response.status(), 200);
  assert.equal((await response.request().allHeaders()).origin, site.origin, 'a cross-origin request');
  assert.equal(response.headers()['access-control-allow-origin'], '*');

  const items = page.locator('#latest-posts li');
  await items.nth(1).waitFor();
  assert.equal(await items.count(), 2, 'two published posts; the draft is not listed');
  assert.deepEqual(await page.locator('#latest-posts li a').allTextContents(), ['Forms without a backend', 'First light']);
  assert.deepEqual(await page.locator('#latest-posts li time').allTextContents(), ['2024-05-10', '2024-03-01']);
  assert.equal(await page.locator('#latest-posts li a').first().getAttribute('href'), '/blog/forms-without-a-backend');
  assert.equal(await page.locator('#latest-posts li p').first().textContent(), 'How a static site takes messages from its readers.');
  assert.equal(await page.locator('#latest-posts li p').nth(1).textContent(), 'The site is live. This first post says hello and explains what comes next.');
  assert.ok(!((await page.locator('#latest-posts').textContent()) ?? '').includes('Unfinished thoughts'));
});

test('the page reads the JSON Feed cross-origin', { timeout: 60_000 }, async (t) => {
  const { site, blogUrl, newPage } = environment();
  const page = await newPage(t);
  await page.goto(`${site.origin}/latest-posts.html`);
  const read = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, type: response.headers.get('content-type'), feed: await response.json() };
  }, `${blogUrl}/api/blog/feed.json`);
  assert.equal(read.status, 200);
  assert.match(read.type ?? '', /^application\/feed\+json/);
  const feed = read.feed as {
    version: string;
    home_page_url: string;
    feed_url: string;
    items: { id: string; url: string; title: string; content_html: string; date_published: string }[];
  };
  assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
  assert.equal(feed.home_page_url, site.origin);
  assert.equal(feed.feed_url, `${site.origin}/api/blog/feed.json`);
  assert.deepEqual(feed.items.map((item) => item.title), ['Forms without a backend', 'First light']);
  assert.equal(feed.items[0]?.url, `${site.origin}/blog/forms-without-a-backend`);
  assert.match(feed.items[0]?.content_html ?? '', /<p>A static site cannot receive a form post by itself\. A small service beside it can\.<\/p>/);
  assert.match(feed.items[1]?.date_published ?? '', /^2024-03-01T/);
});
