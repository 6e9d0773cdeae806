// New posts, translations, Publish/Unpublish's neighbours, and Delete (moved to the trash, never deleted).
import assert from 'node:assert/strict';
import { readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { withPosts } from './support.js';

const post = '+++\ntitle = "Hello"\ndate = 2024-05-01\n+++\n\nBody\n';

describe('create', () => {
  it('writes <slug>.md with TOML front matter, dated today when the form keeps the default', () =>
    withPosts(async ({ posts, contentDir }) => {
      const fields = { ...posts.newPostFields(), slug: 'first-post', title: 'First "post"', tags: ['news'], draft: true };
      assert.equal(fields.date, '2024-05-01');
      const outcome = await posts.create(fields, 'Hello *there*.\n');
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.file, 'first-post.md');
      assert.equal(
        await readFile(path.join(contentDir, 'first-post.md'), 'utf8'),
        '+++\ntitle = "First \\"post\\""\ndate = 2024-05-01\ndraft = true\ntags = [ "news" ]\n+++\n\nHello *there*.\n',
      );
      const read = await posts.read('first-post.md');
      assert.ok(read.ok && read.kind === 'found');
      assert.equal(read.post.version, outcome.version);
      assert.equal((await stat(path.join(contentDir, 'first-post.md'))).mode & 0o777, 0o644);
    }));

  it('refuses a bad slug, a slug the file name would not give back, and a slug that exists', () =>
    withPosts(async ({ posts, put }) => {
      await put('taken.md', post);
      await put('folder/index.md', post);
      await put('only-fr.fr.md', post);
      const base = { ...posts.newPostFields(), title: 'T' };
      // An empty slug is made from the title (test/admin/posts/slugs.test.ts).
      for (const slug of ['..', '.', 'a/b', '../x', 'a\\b', 'with space', '.hidden', 'notes.fr']) {
        const outcome = await posts.create({ ...base, slug }, '');
        assert.ok(!outcome.ok && outcome.kind === 'invalid', slug);
        assert.equal(outcome.problems[0]!.field, 'slug');
      }
      for (const [slug, file] of [['taken', 'taken.md'], ['folder', 'folder/index.md'], ['only-fr', 'only-fr.fr.md']]) {
        assert.deepEqual(await posts.create({ ...base, slug: slug! }, ''), { ok: false, kind: 'exists', file });
      }
      const untitled = await posts.create({ ...base, slug: 'x', title: '' }, '');
      assert.ok(!untitled.ok && untitled.kind === 'invalid');
      assert.equal(untitled.problems[0]!.field, 'title');
    }));
});

describe('addTranslation', () => {
  it('copies a version to <slug>.<lang>.md as a draft, and to index.<lang>.md in a folder', () =>
    withPosts(async ({ posts, put, contentDir }) => {
      await put('hello.md', post);
      const single = await posts.addTranslation('hello.md', 'pt-br');
      assert.ok(single.ok);
      assert.equal(single.file, 'hello.pt-BR.md');
      assert.equal(await readFile(path.join(contentDir, 'hello.pt-BR.md'), 'utf8'), post.replace('+++\n\n', 'draft = true\n+++\n\n'));
      await put('notes/index.md', '---\ntitle: Notes\ndate: 2024-05-01\nlang: en # said twice\n---\nText\n');
      const folder = await posts.addTranslation('notes/index.md', 'fr');
      assert.ok(folder.ok);
      assert.equal(folder.file, 'notes/index.fr.md');
      assert.equal(await readFile(path.join(contentDir, 'notes/index.fr.md'), 'utf8'), '---\ntitle: Notes\ndate: 2024-05-01\nlang: fr # said twice\ndraft: true\n---\nText\n');
    }));

  it('refuses a language that is none, and a version that exists', () =>
    withPosts(async ({ posts, put }) => {
      await put('hello.md', post);
      await put('hello.fr.md', post);
      for (const language of ['js', 'x', '../en', 'fr/x', '']) {
        const outcome = await posts.addTranslation('hello.md', language);
        assert.equal(outcome.ok ? 'created' : outcome.kind, 'invalid', language);
      }
      assert.deepEqual(await posts.addTranslation('hello.md', 'FR'), { ok: false, kind: 'exists', file: 'hello.fr.md' });
      assert.equal((await posts.addTranslation('../hello.md', 'de')).ok, false);
    }));
});

describe('remove', () => {
  it('moves a version to the trash under its time and path', () =>
    withPosts(async ({ posts, put, contentDir, trashDir }) => {
      await put('hello.md', post);
      await put('hello.fr.md', post);
      const outcome = await posts.remove('hello.fr.md');
      assert.deepEqual(outcome, { ok: true, kind: 'trashed', file: 'hello.fr.md', trashedAs: '2024-05-01T12-00-00-000Z-hello.fr.md', movedFolder: false });
      assert.equal(await readFile(path.join(trashDir, '2024-05-01T12-00-00-000Z-hello.fr.md'), 'utf8'), post);
      assert.deepEqual(await readdir(contentDir), ['hello.md']);
      await put('hello.fr.md', post);
      const again = await posts.remove('hello.fr.md');
      assert.ok(again.ok);
      assert.equal(again.trashedAs, '2024-05-01T12-00-00-000Z-hello.fr.md-2');
    }));

  it('moves a folder version alone, and the folder with its images with the last version', () =>
    withPosts(async ({ posts, put, contentDir, trashDir }) => {
      await put('notes/index.md', post);
      await put('notes/index.de.md', post);
      await put('notes/photo.png', 'png');
      const first = await posts.remove('notes/index.de.md');
      assert.ok(first.ok);
      assert.equal(first.trashedAs, '2024-05-01T12-00-00-000Z-notes__index.de.md');
      const last = await posts.remove('notes/index.md');
      assert.ok(last.ok && last.movedFolder);
      assert.equal(last.trashedAs, '2024-05-01T12-00-00-000Z-notes');
      assert.deepEqual((await readdir(path.join(trashDir, last.trashedAs))).sort(), ['index.md', 'photo.png']);
      assert.deepEqual(await readdir(contentDir), []);
    }));

  it('refuses a stale version and paths outside content_dir', () =>
    withPosts(async ({ posts, put, root, contentDir }) => {
      await put('hello.md', post);
      const stale = await posts.remove('hello.md', 'f'.repeat(64));
      assert.equal(stale.ok ? 'trashed' : stale.kind, 'conflict');
      await writeFile(path.join(root, 'elsewhere.md'), post);
      await symlink(path.join(root, 'elsewhere.md'), path.join(contentDir, 'out.md'));
      for (const file of ['../hello.md', '/hello.md', 'out.md']) {
        const outcome = await posts.remove(file);
        assert.equal(outcome.ok ? 'trashed' : outcome.kind, 'refused', file);
      }
      assert.deepEqual(await readdir(contentDir), ['hello.md', 'out.md']);
    }));
});
