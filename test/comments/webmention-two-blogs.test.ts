// Two Postbox blogs on loopback (docs/comments.md "Webmentions"), each composed as `serve` composes it and listening
// on a real port, each with a small site server standing in for the pages a site generator makes from its API:
// blog A publishes a post that links to a post of blog B; A queues the webmention, discovers B's endpoint on B's
// page and posts it; B verifies A's page and shows it as a mention with its author within 10 seconds. Then A's
// post is deleted, its page answers 410, and the webmention A sends again removes it from B.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { bindHttp } from '../../src/http/http-server.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

interface Blog {
  /** The site's pages: http://127.0.0.1:<port> (site.base_url). */
  site: string;
  /** The blog listener: http://127.0.0.1:<port> (blog.public_url). */
  api: string;
  contentDir: string;
}

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A blog: its site server renders /blog/<slug> from the blog API as an h-entry naming the blog's webmention
 * endpoint (410 once the API no longer has the post), and the blog itself, composed and listening.
 */
async function startBlog(name: string, posts: Record<string, string>): Promise<Blog> {
  const blog = { site: '', api: '', contentDir: '' };
  const page = async (slug: string, response: ServerResponse) => {
    const answer = await fetch(`${blog.api}/api/blog/posts/${slug}`);
    if (answer.status !== 200) return response.writeHead(410, { 'content-type': 'text/html' }).end('<p>Gone</p>');
    const post = (await answer.json()) as { title: string; html: string; author?: string | null };
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<head><title>${escapeHtml(post.title)}</title><link rel="webmention" href="${blog.api}/webmention"></head>
<article class="h-entry"><h1 class="p-name">${escapeHtml(post.title)}</h1>
<a class="p-author h-card" href="${blog.site}/">${escapeHtml(post.author ?? name)}</a>
<div class="e-content">${post.html}</div></article>`);
  };
  const site = await listenOnLoopback(
    createServer((request, response) => {
      const slug = /^\/blog\/([a-z0-9-]+)$/.exec(request.url ?? '')?.[1];
      if (!slug) return response.writeHead(404).end();
      page(slug, response).catch(() => response.writeHead(500).end());
    }),
  );
  cleanups.push(() => site.close());
  blog.site = `http://127.0.0.1:${site.port}`;

  const { dir, remove } = await createTempDir(`webmention-${name}`);
  cleanups.push(remove);
  blog.contentDir = path.join(dir, 'posts');
  await mkdir(blog.contentDir);
  for (const [slug, text] of Object.entries(posts)) await writeFile(path.join(blog.contentDir, `${slug}.md`), text);
  const bound = await bindHttp({ host: '127.0.0.1', port: 0 });
  blog.api = bound.address;
  const config = loadTestConfig(
    {
      data_dir: 'data',
      site: { title: `Blog ${name}`, base_url: blog.site },
      blog: {
        listen: '127.0.0.1:0',
        public_url: blog.api,
        content_dir: 'posts',
        comments: { enabled: true, moderation: 'none', webmention_private_sources: true },
      },
      mail: { from: `Blog <blog-${name}@example.com>`, to: `owner-${name}@example.com` },
    },
    dir,
  );
  const composed = await composeServices(config, captureLogs());
  const service = composed.services.find((candidate) => candidate.name === 'blog')!;
  bound.serve(service.handle, service.serverSettings);
  cleanups.push(async () => {
    await bound.close(1_000);
    await composed.close();
  });
  return blog;
}

interface Thread {
  comments: Array<{ kind: string; author: { name: string; url: string | null }; html: string }>;
  total: number;
}

const threadOf = async (blog: Blog, slug: string) => (await (await fetch(`${blog.api}/api/blog/posts/${slug}/comments`)).json()) as Thread;

describe('a webmention from one Postbox blog to another', () => {
  it('is sent on publishing, shown by the other blog with its author, and removed once the post is gone', async () => {
    const b = await startBlog('b', { hello: '---\ntitle: Hello\ndate: 2024-04-01\n---\nHello from B.\n' });
    const a = await startBlog('a', {});
    const target = `${b.site}/blog/hello`;

    await writeFile(path.join(a.contentDir, 'answer.md'), `---\ntitle: An answer\ndate: 2024-05-01\nauthor: Anna\n---\nI read [the post of B](${target}) and agree.\n`);
    const thread = await waitFor('the webmention shown by B', async () => {
      const read = await threadOf(b, 'hello');
      return read.total > 0 ? read : undefined;
    }, 10_000);
    assert.equal(thread.total, 1);
    const [mention] = thread.comments;
    assert.equal(mention!.kind, 'mention');
    assert.deepEqual(mention!.author, { name: 'Anna', url: `${a.site}/` });
    assert.match(mention!.html, /I read .*the post of B.* and agree/);

    // A's post is deleted: its page answers 410, and A sends the webmention again, which takes it away from B.
    await rm(path.join(a.contentDir, 'answer.md'));
    await waitFor('the webmention removed from B', async () => ((await threadOf(b, 'hello')).total === 0 ? true : undefined), 10_000);
    assert.equal((await fetch(`${a.site}/blog/answer`)).status, 410);
  });
});
