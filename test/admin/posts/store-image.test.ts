// Images beside a post: checked by content and size, cleanly named, never over a file, the post moved to a folder.
import assert from 'node:assert/strict';
import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bytes, samples } from './image-samples.js';
import { withPosts } from './support.js';

const post = '+++\ntitle = "Hello"\ndate = 2024-05-01\n+++\n\nBody\n';
const MAX = 1024;

describe('storeImage', () => {
  it('stores an image beside a folder post under its cleaned name, with the Markdown that shows it', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('notes/index.md', post);
      const outcome = await posts.storeImage('notes/index.md', '../../x.PNG', samples.png, MAX);
      assert.deepEqual(outcome, {
        ok: true, kind: 'stored', fileName: 'x.png', markdown: '![](x.png)', mediaType: 'image/png', postFile: 'notes/index.md', moved: [],
      });
      assert.deepEqual(await readFile(path.join(contentDir, 'notes/x.png')), Buffer.from(samples.png));
      assert.deepEqual((await readdir(path.join(contentDir, 'notes'))).sort(), ['index.md', 'x.png']);
    }));

  it('never overwrites a file: x.png, x-2.png, x-3.png', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('notes/index.md', post);
      await put('notes/x.png', 'mine');
      const names = [];
      for (const sample of [samples.png, samples.png]) {
        const outcome = await posts.storeImage('notes/index.md', 'x.png', sample, MAX);
        assert.ok(outcome.ok);
        names.push(outcome.fileName);
      }
      assert.deepEqual(names, ['x-2.png', 'x-3.png']);
      assert.equal(await readFile(path.join(contentDir, 'notes/x.png'), 'utf8'), 'mine');
    }));

  it('names the file by the type it holds, whatever the upload called it', () =>
    withPosts(async ({ posts, put }) => {
      await put('notes/index.md', post);
      const outcome = await posts.storeImage('notes/index.md', 'photo.png', samples.jpeg, MAX);
      assert.ok(outcome.ok);
      assert.equal(outcome.fileName, 'photo.jpg');
    }));

  it('refuses HTML or SVG named .png, anything unknown, and anything above the limit, writing nothing', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('hello.md', post);
      for (const content of [bytes('<html><script>alert(1)</script></html>'), bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), bytes('plain text')]) {
        assert.deepEqual(await posts.storeImage('hello.md', 'cat.png', content, MAX), { ok: false, kind: 'not_an_image' });
      }
      const big = Buffer.concat([Buffer.from(samples.png), Buffer.alloc(MAX)]);
      assert.deepEqual(await posts.storeImage('hello.md', 'big.png', big, MAX), { ok: false, kind: 'too_large', maxBytes: MAX });
      assert.ok((await posts.storeImage('hello.md', 'exact.png', Buffer.concat([Buffer.from(samples.png), Buffer.alloc(MAX - samples.png.length)]), MAX)).ok);
      assert.deepEqual((await readdir(contentDir)).sort(), ['hello']);
      assert.deepEqual((await readdir(path.join(contentDir, 'hello'))).sort(), ['exact.png', 'index.md']);
    }));

  it('moves <slug>.md and its translations into <slug>/ first', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('hello.md', post);
      await put('hello.fr.md', post);
      await put('hello.pt-br.md', post);
      await put('hello-world.md', post);
      await put('node.js.md', post);
      const outcome = await posts.storeImage('hello.fr.md', 'a.gif', samples.gif89, MAX);
      assert.ok(outcome.ok);
      assert.equal(outcome.postFile, 'hello/index.fr.md');
      assert.deepEqual(outcome.moved, [
        { from: 'hello.fr.md', to: 'hello/index.fr.md' },
        { from: 'hello.md', to: 'hello/index.md' },
        { from: 'hello.pt-br.md', to: 'hello/index.pt-br.md' },
      ]);
      assert.deepEqual((await readdir(contentDir)).sort(), ['hello', 'hello-world.md', 'node.js.md']);
      assert.deepEqual((await readdir(path.join(contentDir, 'hello'))).sort(), ['a.gif', 'index.fr.md', 'index.md', 'index.pt-br.md']);
      assert.equal(await readFile(path.join(contentDir, 'hello/index.md'), 'utf8'), post);
      const read = await posts.read('hello/index.pt-br.md');
      assert.ok(read.ok);
    }));

  it('refuses to move a post into a folder that holds post files of its own', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('hello.md', post);
      await put('hello/index.md', post);
      assert.deepEqual(await posts.storeImage('hello.md', 'a.png', samples.png, MAX), { ok: false, kind: 'folder_taken', folder: 'hello' });
      assert.deepEqual((await readdir(path.join(contentDir, 'hello'))).sort(), ['index.md']);
    }));

  it('refuses a post path outside content_dir', () =>
    withPosts(async ({ posts, root, contentDir }) => {
      await writeFile(path.join(root, 'index.md'), post);
      await symlink(root, path.join(contentDir, 'escape'));
      for (const file of ['../index.md', path.join(root, 'index.md'), 'escape/index.md']) {
        const outcome = await posts.storeImage(file, 'a.png', samples.png, MAX);
        assert.equal(outcome.ok ? 'stored' : outcome.kind, 'refused', file);
      }
      assert.deepEqual((await readdir(root)).sort(), ['index.md', 'posts']);
    }));
});
