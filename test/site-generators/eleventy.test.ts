// examples/eleventy/ built by the real Eleventy against a real Postbox (docs/site-generators.md "Eleventy"): the global
// data `postbox.posts` gives a page per post with its HTML, and the plugin's cache on disk makes a build with no
// change read the listing pages alone, and one after an edit fetch the edited post alone.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../support/wait.js';
import { buildEleventyExample } from './support/eleventy-build.js';
import { startPostboxForSites, type PostboxForSites } from './support/postbox-for-sites.js';

const POSTS = 30;

describe('the Eleventy example', { timeout: 240_000 }, () => {
  let postbox: PostboxForSites;
  let workDir: string;
  let outDir: string;
  const page = (...parts: string[]) => readFile(path.join(outDir, ...parts, 'index.html'), 'utf8');
  async function requestsOfBuild() {
    await postbox.settleLog();
    const since = postbox.postbox.logs.length;
    await buildEleventyExample({ workDir, outDir, blogUrl: postbox.blogUrl, formsUrl: postbox.formsUrl });
    await postbox.settleLog();
    return postbox.blogRequests(since).map((line) => `${line.method} ${line.path} ${line.status}`);
  }

  before(async () => {
    postbox = await startPostboxForSites(POSTS);
    workDir = path.join(postbox.root, 'eleventy');
    outDir = path.join(workDir, '_site');
    await mkdir(workDir);
  }, { timeout: 60_000 });
  after(() => postbox?.stop());

  it('builds the index, a page per post with its HTML, and the forms', async () => {
    const requests = await requestsOfBuild();
    assert.equal(requests.length, 1 + POSTS + 1, 'the listing, each post and the one translation');
    const index = await page();
    for (const number of [1, 15, POSTS]) assert.ok(index.includes(`>Post number ${number}</a>`), `the index lists post ${number}`);
    const first = await page('posts', 'post-001');
    assert.match(first, /<h1>Post number 1<\/h1>/);
    assert.match(first, /<p>The body of post 1, with <em>emphasis<\/em>\.<\/p>/);
    assert.match(first, /<img src="[^"]+\/api\/blog\/media\/post-001\/dot\.png" alt="A dot"/);
    assert.match(first, /<postbox-comments post="post-001" lang="en"><\/postbox-comments>/);
    assert.ok((await page('contact')).includes(`<altcha-widget challenge="${postbox.formsUrl}/contact-pow/challenge" auto="onload">`));
    assert.ok((await page('newsletter')).includes(`data-forms="${postbox.formsUrl}"`));
    assert.match(await readFile(path.join(outDir, 'js', 'postbox-client.js'), 'utf8'), /export \{[^}]*createClient/);
  });

  it('builds again without a change from the listing alone, and after an edit fetches the edited post alone', async () => {
    assert.deepEqual(await requestsOfBuild(), ['GET /api/blog/posts 304']);
    const file = path.join(postbox.contentDir, 'post-015.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('The body of post 15', 'The edited body of post 15'));
    await waitFor('the blog to serve the edit', async () => {
      const response = await fetch(`${postbox.blogUrl}/api/blog/posts/post-015`);
      return ((await response.json()) as { body: string }).body.includes('edited') ? true : undefined;
    });
    assert.deepEqual(await requestsOfBuild(), ['GET /api/blog/posts 200', 'GET /api/blog/posts/post-015 200']);
    assert.match(await page('posts', 'post-015'), /The edited body of post 15/);
    assert.match(await page('posts', 'post-014'), /The body of post 14/);
  });
});
