// A real `postbox serve` for the site-generator tests: the blog over a folder of generated posts (with comments on),
// a contact form without proof of work, one with it, and a newsletter form. One per test file; its request log says
// what a build asked for.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRequestLine, startPostboxServe, type ServeProcess } from '../../support/postbox-process.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

/** The origin the forms and comments allow, as a site would be served from. */
export const SITE_ORIGIN = 'http://localhost:4321';

export interface PostboxForSites {
  postbox: ServeProcess;
  formsUrl: string;
  blogUrl: string;
  contentDir: string;
  /** A folder of the test's own, removed at the end. */
  root: string;
  /** The blog's request lines (method and path) logged since `since` (an index into postbox.logs). */
  blogRequests(since: number): Array<{ method: string; path: string; status: number }>;
  /** Waits until everything asked so far is in the log (the lines are written in batches). */
  settleLog(): Promise<void>;
  stop(): Promise<void>;
}

/** `count` posts `post-001`..., one of them (`post-001`) with a French translation and an image beside it. */
export async function writePosts(contentDir: string, count: number): Promise<void> {
  await mkdir(contentDir, { recursive: true });
  for (let index = 1; index <= count; index += 1) {
    const slug = `post-${String(index).padStart(3, '0')}`;
    const day = String((index % 28) + 1).padStart(2, '0');
    const text = `+++\ntitle = "Post number ${index}"\ndate = 2024-01-${day}\ntags = ["${index % 2 === 0 ? 'even' : 'odd'}"]\n+++\n\nThe body of post ${index}, with *emphasis*.\n`;
    if (index === 1) {
      await mkdir(path.join(contentDir, slug));
      await writeFile(path.join(contentDir, slug, 'index.md'), text.replace('+++\n\n', '+++\n\n![A dot](dot.png)\n\n'));
      await writeFile(path.join(contentDir, slug, 'dot.png'), ONE_PIXEL_PNG);
      await writeFile(path.join(contentDir, slug, 'index.fr.md'), `+++\ntitle = "Article numéro 1"\ndate = 2024-01-02\nlang = "fr"\n+++\n\nLe corps de l'article 1.\n`);
    } else {
      await writeFile(path.join(contentDir, `${slug}.md`), text);
    }
  }
}

const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Starts Postbox over `count` generated posts. */
export async function startPostboxForSites(count: number): Promise<PostboxForSites> {
  const { dir: root, remove } = await createTempDir('sites');
  const contentDir = path.join(root, 'posts');
  await writePosts(contentDir, count);
  const origins = `["${SITE_ORIGIN}"]`;
  const config = `data_dir = "./data"
[server]
listen = "127.0.0.1:0"
public_url = "http://127.0.0.1"
[mail]
transport = "file"
from = "forms@example.com"
to = "owner@example.com"
[[forms]]
path = "/contact"
type = "contact"
allowed_origins = ${origins}
rate_limit_per_hour = 0
[[forms]]
path = "/contact-pow"
type = "contact"
allowed_origins = ${origins}
[forms.spam]
proof_of_work = true
[[forms]]
path = "/newsletter"
type = "newsletter"
allowed_origins = ${origins}
rate_limit_per_hour = 0
[site]
title = "Example Blog"
description = "Notes"
base_url = "${SITE_ORIGIN}"
language = "en"
[blog]
listen = "127.0.0.1:0"
content_dir = "./posts"
[blog.comments]
enabled = true
moderation = "none"
allowed_origins = ${origins}
rate_limit_per_hour = 0
[blog.comments.spam]
proof_of_work = false
`;
  await writeFile(path.join(root, 'config.toml'), config);
  let postbox: ServeProcess;
  try {
    postbox = await startPostboxServe(path.join(root, 'config.toml'), ['forms', 'blog']);
  } catch (error) {
    await remove();
    throw error;
  }
  const blogUrl = postbox.addresses.blog as string;
  const requestLines = (since: number) =>
    postbox.logs.slice(since).filter((line) => line.msg === 'request' && typeof line.path === 'string') as Array<{ method: string; path: string; status: number; msg: string }>;
  return {
    postbox,
    formsUrl: postbox.addresses.forms as string,
    blogUrl,
    contentDir,
    root,
    blogRequests: (since) => requestLines(since).filter((line) => line.path.startsWith('/api/blog/')).map(({ method, path: linePath, status }) => ({ method, path: linePath, status })),
    async settleLog() {
      // A request of its own, then its line: every line before it was written with or before it.
      const marker = `/health`;
      const since = postbox.logs.length;
      await fetch(`${blogUrl}${marker}`);
      await waitFor('the request log', () => (postbox.logs.slice(since).some((line) => isRequestLine(line, 'GET', marker)) ? true : undefined), 10_000);
    },
    async stop() {
      await postbox.stop();
      await remove();
    },
  };
}
