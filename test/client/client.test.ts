// postbox/client against a real `postbox serve` (docs/site-generators.md "The typed client"): every function
// resolves to the answer's body, and a refusal rejects with the catalogue's code. Imported as a site imports it,
// from the package's `exports` (dist/, made by `npm run build`).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { PostboxClient } from '../../src/client/client.js';
import { launchChromium } from '../e2e/support/browser.js';
import { startStaticSite } from '../e2e/support/static-site.js';
import { REPO_ROOT } from '../support/postbox-process.js';
import { startPostboxForSites, SITE_ORIGIN, type PostboxForSites } from '../site-generators/support/postbox-for-sites.js';

// Through the package's exports, at run time: a specifier in a variable, so the type check reads the source's types.
const entry: string = 'postbox/client';
const { createClient, PostboxError } = (await import(entry)) as typeof import('../../src/client/client.js');

describe('postbox/client', () => {
  let postbox: PostboxForSites;
  let client: PostboxClient;
  before(async () => {
    postbox = await startPostboxForSites(3);
    client = createClient({ forms: postbox.formsUrl, blog: `${postbox.blogUrl}/` });
  }, { timeout: 60_000 });
  after(() => postbox?.stop());

  it('lists posts, a page at a time, and reads a post and its translation', async () => {
    const first = await client.listPosts({ limit: 2 });
    assert.deepEqual(first.posts.map((post) => post.slug), ['post-003', 'post-002']);
    assert.equal(first.has_next, true);
    const second = await client.listPosts({ limit: 2, page: 2 });
    assert.deepEqual(second.posts.map((post) => post.slug), ['post-001']);
    const post = await client.getPost('post-001');
    assert.match(post.html, /<img[^>]+dot\.png/);
    assert.deepEqual(Object.keys(post.translations), ['fr']);
    assert.equal((await client.getPost('post-001', { lang: 'fr' })).title, 'Article numéro 1');
  });

  it('rejects with the catalogue\'s code and status', async () => {
    const refused = await client.getPost('no-such-post').then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof PostboxError);
    assert.equal(refused.status, 404);
    assert.equal(refused.error, 'not_found');
    const invalid = await client.listPosts({ limit: 1000 }).then(() => undefined, (error: unknown) => error);
    assert.ok(invalid instanceof PostboxError && invalid.error === 'invalid_query');
  });

  it('sends a comment and reads it in the thread', async () => {
    const accepted = await client.postComment('post-002', { name: 'Ada', text: 'A *first* comment.', website: '' });
    assert.equal(accepted.status, 'published');
    const thread = await client.listComments('post-002');
    assert.deepEqual(thread.comments.map((comment) => [comment.id, comment.author.name]), [[accepted.id, 'Ada']]);
    assert.match(thread.comments[0]!.html, /<em>first<\/em>/);
  });

  it('submits a form and signs up, and a refused field comes back with its details', async () => {
    assert.deepEqual(await client.submit('/contact', { name: 'Ada', email: 'ada@example.com', message: 'Hello from the client test.' }), { ok: true });
    assert.deepEqual(await client.signup('/newsletter', { email: 'reader@example.com' }), { ok: true });
    const refused = await client.submit('/contact', { name: 'Ada', email: 'not an address', message: 'Hello from the client test.' }).then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof PostboxError);
    assert.equal(refused.error, 'validation');
    assert.ok(refused.body && 'details' in refused.body && refused.body.details.some((detail) => detail.field === 'email'));
  });

  it('sends what a browser page sends: an Origin the form allows is answered, another is refused', async () => {
    const fromPage = (origin: string) => createClient({ forms: postbox.formsUrl, fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin } }) });
    assert.deepEqual(await fromPage(SITE_ORIGIN).signup('/newsletter', { email: 'page@example.com' }), { ok: true });
    const refused = await fromPage('https://elsewhere.example').signup('/newsletter', { email: 'page@example.com' }).then(() => undefined, (error: unknown) => error);
    assert.ok(refused instanceof PostboxError && refused.error === 'origin_not_allowed' && refused.status === 403);
  });

  it('says which address it lacks', async () => {
    await assert.rejects(() => createClient({ blog: 'http://127.0.0.1:1' }).submit('/contact', { name: 'A', email: 'a@example.com', message: 'x' }), /createClient\(\{ forms \}\)/);
  });

  it('runs in a browser page of another origin, as the built module', { timeout: 60_000 }, async () => {
    const module = await readFile(`${REPO_ROOT}dist/client/client.js`, 'utf8');
    const site = await startStaticSite();
    const browser = await launchChromium();
    try {
      const script = `${module}
        const postbox = createClient({ blog: ${JSON.stringify(postbox.blogUrl)} });
        const page = await postbox.listPosts({ limit: 1 });
        const missing = await postbox.getPost('no-such-post').catch((error) => [error instanceof PostboxError, error.error]);
        document.title = JSON.stringify([page.posts[0].slug, (await postbox.getPost('post-001')).title, missing]);`;
      site.put('/client.html', `<!doctype html><title>waiting</title><script type="module">${script}</script>`);
      const page = await browser.newPage();
      await page.goto(`${site.origin}/client.html`);
      await page.waitForFunction(() => document.title !== 'waiting', undefined, { timeout: 15_000 });
      assert.deepEqual(JSON.parse(await page.title()), ['post-003', 'Post number 1', [true, 'not_found']]);
    } finally {
      await browser.close();
      await site.close();
    }
  });
});
