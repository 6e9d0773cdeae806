// Symbolic links in content_dir (docs/blog.md "Where posts live"): a post file, a post folder or an image reached
// through a link that leads out of content_dir is never read nor served; links that stay inside keep working.
import assert from 'node:assert/strict';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPostLibrary } from '../../src/blog/content/library.js';
import { createMediaReader } from '../../src/blog/media/media-files.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { parseContext, startBlog, type RunningBlog } from './fixture.js';

const SECRET = 'root:x:0:0:SECRET-LINE';
const post = (title: string, body = `Text of ${title}.`) => `+++\ntitle = "${title}"\ndate = 2024-01-01\n+++\n\n${body}\n`;
/** A PNG's first bytes: enough for the image check. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1')]);

let base: string;
let remove: () => Promise<void>;
/** content_dir, and a folder beside it that links lead to. */
let content: string;
let outside: string;
before(async () => {
  ({ dir: base, remove } = await createTempDir('blog-symlinks'));
  content = path.join(base, 'posts');
  outside = path.join(base, 'private');
  await mkdir(content);
  await mkdir(path.join(outside, 'folder'), { recursive: true });
  // What a link could reach: a file shaped like a post (so that it would parse), and a post folder with an image.
  await writeFile(path.join(outside, 'passwd'), post('Leaked', SECRET));
  await writeFile(path.join(outside, 'folder', 'index.md'), post('Leaked folder', SECRET));
  await writeFile(path.join(outside, 'folder', 'photo.png'), PNG);

  await writeFile(path.join(content, 'hello.md'), post('Hello'));
  // Inside content_dir: a hidden folder is not scanned itself, a link to its post is a post.
  await mkdir(path.join(content, '.sources'));
  await writeFile(path.join(content, '.sources', 'kept.md'), post('Kept'));
  await symlink(path.join(content, '.sources', 'kept.md'), path.join(content, 'alias.md'));
  // Leading out: a post file, a post in a folder, a whole folder (absolute and relative targets).
  await symlink(path.join(outside, 'passwd'), path.join(content, 'passwd.md'));
  await mkdir(path.join(content, 'trip'));
  await symlink('../../private/passwd', path.join(content, 'trip', 'index.md'));
  await symlink(path.join(outside, 'folder'), path.join(content, 'away'));
});
after(() => remove());

describe('post files reached through symbolic links', () => {
  it('skips a post file or a post in a folder that links out of content_dir, with one warning each, and keeps a link inside', async () => {
    const logs = captureLogs();
    const library = createPostLibrary(content, parseContext(), logs.logger);
    const result = await library.refresh();
    assert.deepEqual(result.posts.map((entry) => entry.slug).sort(), ['alias', 'hello']);
    assert.deepEqual(
      result.skipped.map((entry) => `${entry.file}: ${entry.reason}`).sort(),
      ['passwd.md: a symbolic link to a file outside content_dir', 'trip/index.md: a symbolic link to a file outside content_dir'],
    );
    assert.equal(result.posts.find((entry) => entry.slug === 'alias')?.body.trim(), 'Text of Kept.');
    assert.doesNotMatch(logs.text(), /SECRET|Leaked/);
    await library.refresh();
    assert.equal(logs.lines().filter((line) => line.event === 'post_skipped').length, 2, 'not reported again while unchanged');
  });

  it('does not follow a linked folder, also when a file event names a post inside it', async () => {
    const library = createPostLibrary(content, parseContext(), captureLogs().logger);
    await library.refresh();
    const named = await library.refresh(['away/index.md', 'away', 'passwd.md']);
    assert.deepEqual(named.posts.map((entry) => entry.slug).sort(), ['alias', 'hello']);
  });

  it('gives an empty body, not the linked file, when a loaded post becomes a link out of content_dir', async () => {
    const { dir, remove: removeDir } = await createTempDir('blog-symlink-swap');
    try {
      await writeFile(path.join(dir, 'swap.md'), post('Swap', 'The real text.'));
      const library = createPostLibrary(dir, parseContext(), captureLogs().logger);
      const [loaded] = (await library.refresh()).posts;
      assert.equal(loaded?.body.trim(), 'The real text.');
      // Replaced before any reload looked at it: the post still points at the path.
      await rm(path.join(dir, 'swap.md'));
      await symlink(path.join(outside, 'passwd'), path.join(dir, 'swap.md'));
      assert.equal(loaded?.body, '');
      assert.doesNotMatch(loaded?.searchText ?? '', /secret/i);
    } finally {
      await removeDir();
    }
  });
});

describe('images reached through symbolic links', () => {
  it('reads no image whose folder became a link out of content_dir', async () => {
    const { dir, remove: removeDir } = await createTempDir('blog-symlink-media');
    try {
      await mkdir(path.join(dir, 'pics'));
      await writeFile(path.join(dir, 'pics', 'photo.png'), PNG);
      const read = createMediaReader(dir);
      assert.equal((await read('pics', 'photo.png'))?.contentType, 'image/png');
      // The catalog still names the folder "pics"; it is now a link to a folder elsewhere holding the same name.
      await rename(path.join(dir, 'pics'), path.join(base, 'moved-pics'));
      await symlink(path.join(outside, 'folder'), path.join(dir, 'pics'));
      assert.equal(await read('pics', 'photo.png'), null);
      // A folder link that stays inside content_dir is followed.
      await rm(path.join(dir, 'pics'));
      await mkdir(path.join(dir, '.real'));
      await writeFile(path.join(dir, '.real', 'photo.png'), PNG);
      await symlink(path.join(dir, '.real'), path.join(dir, 'pics'));
      assert.equal((await read('pics', 'photo.png'))?.contentType, 'image/png');
    } finally {
      await removeDir();
    }
  });

  it('the service answers 404 for the linked posts and their images, and never their text', async () => {
    const blog: RunningBlog = await startBlog(content, { deps: { rescanIntervalMs: 0 } });
    try {
      const list = await blog.request('/api/blog/posts');
      assert.deepEqual(list.json.posts.map((entry: { slug: string }) => entry.slug).sort(), ['alias', 'hello']);
      for (const url of ['/api/blog/posts/passwd', '/api/blog/posts/trip', '/api/blog/posts/away', '/api/blog/media/away/photo.png', '/api/blog/media/trip/photo.png']) {
        const response = await blog.request(url);
        assert.equal(response.status, 404, url);
        assert.doesNotMatch(response.body, /SECRET/, url);
      }
      for (const url of ['/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml', '/api/blog/posts?q=secret']) {
        assert.doesNotMatch((await blog.request(url)).body, /SECRET|Leaked/, url);
      }
    } finally {
      await blog.close();
    }
  });
});
