// examples/astro/ built by the real Astro against a real Postbox (docs/site-generators.md "Astro"): its pages hold the
// posts, their translations, the forms and the comments widget; a build with no change reads each listing page and
// nothing else, and a build after an edit fetches the edited post alone.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../support/wait.js';
import { buildAstroExample } from './support/astro-build.js';
import { startPostboxForSites, type PostboxForSites } from './support/postbox-for-sites.js';

/** More than one listing page (100 a page), and a build that stays short. */
const POSTS = 120;

describe('the Astro example', { timeout: 300_000 }, () => {
  let postbox: PostboxForSites;
  let outDir: string;
  let cacheDir: string;
  const build = () => buildAstroExample({ outDir, cacheDir, blogUrl: postbox.blogUrl, formsUrl: postbox.formsUrl });
  const page = (...parts: string[]) => readFile(path.join(outDir, ...parts, 'index.html'), 'utf8');
  /** The blog requests a build made, after the log has caught up. */
  async function requestsOf(buildOnce: () => Promise<unknown>) {
    await postbox.settleLog();
    const since = postbox.postbox.logs.length;
    await buildOnce();
    await postbox.settleLog();
    return postbox.blogRequests(since).map((line) => `${line.method} ${line.path} ${line.status}`);
  }

  before(async () => {
    postbox = await startPostboxForSites(POSTS);
    outDir = path.join(postbox.root, 'astro-out');
    cacheDir = path.join(postbox.root, 'astro-cache');
  }, { timeout: 60_000 });
  after(() => postbox?.stop());

  it('builds a page per post and translation, with their HTML, tags, dates and media on Postbox', async () => {
    const requests = await requestsOf(build);
    assert.equal(requests.filter((line) => line === 'GET /api/blog/posts 200').length, 2, 'two listing pages');
    assert.equal(requests.length, 2 + POSTS + 1, 'the listings, each post and the one translation');

    const index = await page();
    for (const number of [1, 60, POSTS]) assert.ok(index.includes(`>Post number ${number}</a>`), `the index lists post ${number}`);
    assert.ok(!index.includes('Article numéro 1'), 'the index lists primary versions');

    const first = await page('posts', 'post-001');
    assert.match(first, /<h1>Post number 1<\/h1>/);
    assert.match(first, /<time datetime="2024-01-02">/);
    assert.match(first, /<span class="tag">odd<\/span>/);
    assert.match(first, /<p>The body of post 1, with <em>emphasis<\/em>\.<\/p>/);
    assert.match(first, /<img src="[^"]+\/api\/blog\/media\/post-001\/dot\.png" alt="A dot"/);
    assert.match(first, /<a href="\/posts\/post-001\/fr\/" hreflang="fr">fr<\/a>/);
    assert.ok(first.includes(`<script type="module" src="${postbox.blogUrl}/comments.js"></script>`));
    assert.match(first, /<postbox-comments post="post-001" lang="en"><\/postbox-comments>/);
    assert.match(await page('posts', 'post-001', 'fr'), /<html lang="fr">[\s\S]*<h1>Article numéro 1<\/h1>[\s\S]*Le corps de l'article 1\./);

    const contact = await page('contact');
    assert.ok(contact.includes(`action="${postbox.formsUrl}/contact-pow"`));
    assert.ok(contact.includes(`<altcha-widget challenge="${postbox.formsUrl}/contact-pow/challenge" auto="onload">`));
    const newsletter = await page('newsletter');
    assert.ok(newsletter.includes(`data-forms="${postbox.formsUrl}"`));
    assert.match(newsletter, /createClient/, 'the form\'s script, with postbox/client, is in the page');
  });

  it('builds again without a change from the listing pages alone', async () => {
    const requests = await requestsOf(build);
    assert.deepEqual(requests.sort(), ['GET /api/blog/posts 304', 'GET /api/blog/posts 304']);
    assert.match(await page('posts', 'post-060'), /<h1>Post number 60<\/h1>/);
  });

  it('after an edit, fetches the edited post alone', async () => {
    const file = path.join(postbox.contentDir, 'post-060.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('The body of post 60', 'The edited body of post 60'));
    await waitFor('the blog to serve the edit', async () => {
      const response = await fetch(`${postbox.blogUrl}/api/blog/posts/post-060`);
      return ((await response.json()) as { body: string }).body.includes('edited') ? true : undefined;
    });
    const requests = await requestsOf(build);
    const listings = requests.filter((line) => line.startsWith('GET /api/blog/posts '));
    assert.equal(listings.length, 2, requests.join('\n'));
    assert.deepEqual(requests.filter((line) => !listings.includes(line)), ['GET /api/blog/posts/post-060 200']);
    assert.match(await page('posts', 'post-060'), /The edited body of post 60/);
    assert.match(await page('posts', 'post-059'), /The body of post 59/);
  });
});
