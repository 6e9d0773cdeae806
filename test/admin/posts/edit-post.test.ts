// Reading a version for the editor, saving it with round-trip fidelity, and refusing a save over a newer file.
import assert from 'node:assert/strict';
import { chmod, lstat, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { EditableVersion, PostFields } from '../../../src/admin/posts/post-files.js';
import { withPosts, type PostsFixture } from './support.js';

const tomlPost = `+++
# for the site generator
title = "Hello, world"   # the title
date = 2024-05-01
weight = 3.0
tags = ["a", "b"]
custom = { nested = 1 }

[extra]
menu = "main"
+++

The body.
`;

const yamlPost = `---
# a comment
title: Hello, world   # the title
date: 2024-05-01
tags: [a, b]
unknown: kept   # by the form
fediverse_creator: "@ada@example.social"
---

The body.
`;

async function open(fixture: PostsFixture, file: string): Promise<EditableVersion> {
  const outcome = await fixture.posts.read(file);
  assert.ok(outcome.ok && outcome.kind === 'found', JSON.stringify(outcome));
  return outcome.post;
}

async function saveFields(fixture: PostsFixture, file: string, change: Partial<PostFields>, body?: string): Promise<string> {
  const post = await open(fixture, file);
  const outcome = await fixture.posts.save({ file, version: post.version, fields: { ...post.fields, ...change }, body: body ?? post.body });
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return readFile(path.join(fixture.contentDir, file), 'utf8');
}

function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const old = before.split('\n');
  const now = after.split('\n');
  return { added: now.filter((line) => !old.includes(line)), removed: old.filter((line) => !now.includes(line)) };
}

describe('read', () => {
  it('gives the fields, the body, the format and a version token', () =>
    withPosts(async (fixture) => {
      await fixture.put('hello.md', tomlPost);
      await fixture.put('notes/index.fr.md', '---\ntitle: Notes\ndate: 2024-05-01T09:30:00+02:00\ncover: {src: a.png, alt: A lake}\nlang: fr\ndraft: true\n---\nTexte\n');
      const toml = await open(fixture, 'hello.md');
      assert.equal(toml.format, 'toml');
      assert.deepEqual(toml.fields, {
        title: 'Hello, world', slug: '', date: '2024-05-01', tags: ['a', 'b'], draft: false,
        excerpt: '', cover: '', coverAlt: '', author: '', lang: '', rawHtml: false,
      });
      assert.equal(toml.body, 'The body.\n');
      assert.match(toml.version, /^[0-9a-f]{64}$/);
      const yaml = await open(fixture, 'notes/index.fr.md');
      assert.equal(yaml.format, 'yaml');
      assert.equal(yaml.fileSlug, 'notes');
      assert.equal(yaml.fileLanguage, 'fr');
      assert.equal(yaml.fields.date, '2024-05-01T09:30:00+02:00');
      assert.deepEqual([yaml.fields.cover, yaml.fields.coverAlt, yaml.fields.lang, yaml.fields.draft], ['a.png', 'A lake', 'fr', true]);
    }));

  it('refuses paths outside content_dir and names that are no post file', () =>
    withPosts(async (fixture) => {
      await writeFile(path.join(fixture.root, 'secret.md'), tomlPost);
      await symlink(path.join(fixture.root, 'secret.md'), path.join(fixture.contentDir, 'link.md'));
      for (const file of ['../secret.md', 'a/../../secret.md', path.join(fixture.root, 'secret.md'), '/etc/passwd', 'link.md',
        'x\\..\\secret.md', 'hello.txt', '.hidden.md', 'a/b/c.md', 'a//index.md', './hello.md', '']) {
        const outcome = await fixture.posts.read(file);
        assert.equal(outcome.ok ? 'found' : outcome.kind, 'refused', file);
      }
      assert.equal((await fixture.posts.read('missing.md')).ok, false);
      assert.deepEqual(await fixture.posts.read('missing.md'), { ok: false, kind: 'not_found' });
    }));

  it('says why a file cannot be edited when its front matter does not parse', () =>
    withPosts(async (fixture) => {
      await fixture.put('broken.md', '+++\ntitle = \n+++\n');
      const outcome = await fixture.posts.read('broken.md');
      assert.equal(outcome.ok ? 'found' : outcome.kind, 'unreadable');
    }));
});

describe('save: only what the person changed differs', () => {
  const cases: Array<[string, string, Partial<PostFields>, string[], string[]]> = [
    ['TOML title', tomlPost, { title: 'Bonjour' }, ['title = "Bonjour"   # the title'], ['title = "Hello, world"   # the title']],
    ['TOML date', tomlPost, { date: '2024-06-02T08:00:00Z' }, ['date = 2024-06-02T08:00:00Z'], ['date = 2024-05-01']],
    ['TOML tags', tomlPost, { tags: ['c'] }, ['tags = [ "c" ]'], ['tags = ["a", "b"]']],
    ['TOML tags emptied', tomlPost, { tags: [] }, [], ['tags = ["a", "b"]']],
    ['TOML author added', tomlPost, { author: 'Ada' }, ['author = "Ada"'], []],
    ['TOML draft', tomlPost, { draft: true }, ['draft = true'], []],
    ['YAML title', yamlPost, { title: 'Bonjour' }, ['title: Bonjour   # the title'], ['title: Hello, world   # the title']],
    ['YAML cover', yamlPost, { cover: 'a.png', coverAlt: 'A lake' }, ['cover: {src: a.png, alt: A lake}'], []],
    ['YAML excerpt', yamlPost, { excerpt: 'In short' }, ['excerpt: In short'], []],
    ['YAML tags emptied', yamlPost, { tags: [] }, [], ['tags: [a, b]']],
    ['YAML lang', yamlPost, { lang: 'pt-BR' }, ['lang: pt-BR'], []],
  ];
  for (const [name, original, change, added, removed] of cases) {
    it(name, () =>
      withPosts(async (fixture) => {
        await fixture.put('post.md', original);
        const after = await saveFields(fixture, 'post.md', change);
        assert.deepEqual(changedLines(original, after), { added, removed });
      }));
  }

  it('changes the body alone, keeping the front matter byte for byte, in the file\'s line ends', () =>
    withPosts(async (fixture) => {
      const crlf = yamlPost.replace(/\n/g, '\r\n');
      await fixture.put('post.md', crlf);
      const after = await saveFields(fixture, 'post.md', {}, 'New body\r\nline two\n');
      assert.equal(after, crlf.replace('The body.\r\n', 'New body\r\nline two\r\n'));
    }));

  it('writes nothing when nothing changed', () =>
    withPosts(async (fixture) => {
      await fixture.put('post.md', tomlPost);
      const post = await open(fixture, 'post.md');
      const outcome = await fixture.posts.save({ file: 'post.md', version: post.version, fields: post.fields, body: post.body.replace(/\n/g, '\r\n') });
      assert.deepEqual(outcome, { ok: true, kind: 'saved', file: 'post.md', version: post.version, changed: false });
    }));

  it('returns the problems of bad fields, by the blog\'s rules, and writes nothing', () =>
    withPosts(async (fixture) => {
      await fixture.put('post.md', tomlPost);
      const post = await open(fixture, 'post.md');
      const outcome = await fixture.posts.save({
        file: 'post.md', version: post.version, body: post.body,
        fields: { ...post.fields, title: ' ', date: '2024-13-01', slug: '..', lang: 'not a language', tags: ['ok', ' '] },
      });
      assert.ok(!outcome.ok && outcome.kind === 'invalid');
      assert.deepEqual(outcome.problems.map((problem) => problem.field).sort(), ['date', 'lang', 'slug', 'tags', 'title']);
      const cover = await fixture.posts.save({ file: 'post.md', version: post.version, body: post.body, fields: { ...post.fields, cover: 'javascript:alert(1)' } });
      assert.ok(!cover.ok && cover.kind === 'invalid');
      assert.equal(cover.problems[0]!.field, 'cover');
      assert.equal(await readFile(path.join(fixture.contentDir, 'post.md'), 'utf8'), tomlPost);
    }));

  it('writes through a link inside content_dir, keeping the link and the file mode', () =>
    withPosts(async (fixture) => {
      await fixture.put('real.md', tomlPost);
      await chmod(path.join(fixture.contentDir, 'real.md'), 0o640);
      await symlink('real.md', path.join(fixture.contentDir, 'alias.md'));
      await saveFields(fixture, 'alias.md', { title: 'Via link' });
      assert.match(await readFile(path.join(fixture.contentDir, 'real.md'), 'utf8'), /title = "Via link"/);
      assert.ok((await lstat(path.join(fixture.contentDir, 'alias.md'))).isSymbolicLink());
      assert.equal((await stat(path.join(fixture.contentDir, 'real.md'))).mode & 0o777, 0o640);
    }));
});

describe('save: a file changed on disk since the editor opened it', () => {
  it('is refused with both texts, and nothing is written', () =>
    withPosts(async (fixture) => {
      await fixture.put('post.md', tomlPost);
      const post = await open(fixture, 'post.md');
      const theirs = tomlPost.replace('The body.', 'Their body.');
      await fixture.put('post.md', theirs);
      const outcome = await fixture.posts.save({ file: 'post.md', version: post.version, fields: { ...post.fields, title: 'Mine' }, body: post.body });
      assert.ok(!outcome.ok && outcome.kind === 'conflict');
      assert.equal(outcome.theirs, theirs);
      assert.match(outcome.mine, /title = "Mine"/);
      assert.equal(outcome.merged, null);
      assert.equal(await readFile(path.join(fixture.contentDir, 'post.md'), 'utf8'), theirs);
    }));

  it('offers a three-way merge when the changes do not overlap, and none when they do', () =>
    withPosts(async (fixture) => {
      await fixture.put('post.md', tomlPost);
      const post = await open(fixture, 'post.md');
      await fixture.put('post.md', tomlPost.replace('The body.', 'Their body.'));
      const apart = await fixture.posts.save({ file: 'post.md', version: post.version, fields: { ...post.fields, author: 'Ada' }, body: post.body, baseText: post.text });
      assert.ok(!apart.ok && apart.kind === 'conflict');
      assert.equal(apart.merged, tomlPost.replace('The body.', 'Their body.').replace('custom = { nested = 1 }\n', 'custom = { nested = 1 }\nauthor = "Ada"\n'));
      const overlap = await fixture.posts.save({ file: 'post.md', version: post.version, fields: post.fields, body: 'My body.\n', baseText: post.text });
      assert.ok(!overlap.ok && overlap.kind === 'conflict');
      assert.equal(overlap.merged, null);
    }));
});

describe('setDraft', () => {
  it('unpublishes with draft = true and publishes by removing the key', () =>
    withPosts(async (fixture) => {
      await fixture.put('post.md', yamlPost);
      const unpublished = await fixture.posts.setDraft('post.md', true);
      assert.ok(unpublished.ok);
      const file = path.join(fixture.contentDir, 'post.md');
      assert.equal(await readFile(file, 'utf8'), yamlPost.replace('---\n\nThe', 'draft: true\n---\n\nThe'));
      const published = await fixture.posts.setDraft('post.md', false, unpublished.version);
      assert.ok(published.ok);
      assert.equal(await readFile(file, 'utf8'), yamlPost);
      const stale = await fixture.posts.setDraft('post.md', true, unpublished.version);
      assert.equal(stale.ok ? 'saved' : stale.kind, 'conflict');
    }));
});
