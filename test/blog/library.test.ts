// Loading content_dir: one warning per broken file (not repeated while the file is unchanged), duplicates,
// unreadable files, and re-reading only what changed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createPostLibrary } from '../../src/blog/content/library.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { parseContext } from './fixture.js';

let dir: string;
let remove: () => Promise<void>;
let logs: LogCapture;
beforeEach(async () => {
  ({ dir, remove } = await createTempDir('blog-library'));
  logs = captureLogs();
});
afterEach(async () => {
  await remove();
});

const post = (title: string, extra = '') => `+++\ntitle = "${title}"\ndate = 2024-01-01\n${extra}+++\n\nText of ${title}.\n`;
const warnings = () => logs.lines().filter((line) => line.level === 40).map((line) => `${line.file}: ${line.reason}`);

describe('post library', () => {
  it('warns once per broken file, again only when it changes, and keeps serving the rest', async () => {
    await writeFile(path.join(dir, 'good.md'), post('Good'));
    await writeFile(path.join(dir, 'bad.md'), '+++\ndate = 2024-01-01\n+++\n');
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const first = await library.refresh();
    assert.deepEqual(first.posts.map((entry) => entry.slug), ['good']);
    assert.deepEqual(warnings(), ['bad.md: title is required']);

    const second = await library.refresh();
    assert.equal(second.changed, false);
    assert.equal(warnings().length, 1, 'an unchanged broken file is not reported again');

    await writeFile(path.join(dir, 'bad.md'), '+++\ntitle = "Still no date"\n+++\n');
    await library.refresh();
    assert.deepEqual(warnings(), ['bad.md: title is required', 'bad.md: date is required']);

    await writeFile(path.join(dir, 'bad.md'), post('Fixed'));
    const fixed = await library.refresh();
    assert.deepEqual(fixed.posts.map((entry) => entry.slug).sort(), ['bad', 'good']);
    assert.equal(warnings().length, 2);
  });

  it('re-reads only files whose size, mtime or inode changed', async () => {
    await writeFile(path.join(dir, 'a.md'), post('A'));
    await writeFile(path.join(dir, 'b.md'), post('B'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const first = await library.refresh();
    const [a, b] = first.posts;
    await writeFile(path.join(dir, 'b.md'), post('B2'));
    const future = new Date(Date.now() + 5000);
    await utimes(path.join(dir, 'b.md'), future, future);
    const second = await library.refresh();
    assert.equal(second.changed, true);
    assert.equal(second.posts.find((entry) => entry.slug === 'a'), a, 'a.md was not parsed again');
    assert.notEqual(second.posts.find((entry) => entry.slug === 'b'), b);
    assert.equal(second.posts.find((entry) => entry.slug === 'b')?.title, 'B2');
  });

  it('skips the second file of a slug and language with one warning naming the first', async () => {
    await writeFile(path.join(dir, 'same.md'), post('File'));
    await mkdir(path.join(dir, 'same'));
    await writeFile(path.join(dir, 'same', 'index.md'), post('Folder'));
    await writeFile(path.join(dir, 'other.md'), post('Other', 'slug = "same"\nlang = "fr"\n'));
    await writeFile(path.join(dir, 'same.fr.md'), post('French'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const result = await library.refresh();
    assert.deepEqual(result.posts.map((entry) => `${entry.file} ${entry.slug}:${entry.lang}`).sort(), ['other.md same:fr', 'same.md same:en']);
    assert.deepEqual(warnings().sort(), [
      'same.fr.md: duplicate of other.md (slug "same", lang "fr")',
      'same/index.md: duplicate of same.md (slug "same", lang "en")',
    ]);
    await library.refresh();
    assert.equal(warnings().length, 2, 'not repeated on the next rescan');
  });

  it('reports a file that cannot be read (a dangling link) once', async () => {
    await writeFile(path.join(dir, 'ok.md'), post('OK'));
    await symlink(path.join(dir, 'missing-target.md'), path.join(dir, 'dangling.md'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const result = await library.refresh();
    assert.deepEqual(result.posts.map((entry) => entry.slug), ['ok']);
    assert.deepEqual(warnings(), ['dangling.md: cannot read: ENOENT']);
    await library.refresh();
    assert.equal(warnings().length, 1);
  });

  it('passes over a FIFO or a folder link named like a post, on a first start and after, without waiting on it', async () => {
    await writeFile(path.join(dir, 'ok.md'), post('OK'));
    execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
    await mkdir(path.join(dir, 'elsewhere'));
    await symlink(path.join(dir, 'elsewhere'), path.join(dir, 'folder-link.md'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    assert.deepEqual((await library.refresh()).posts.map((entry) => entry.slug), ['ok']);
    assert.deepEqual((await library.refresh()).posts.map((entry) => entry.slug), ['ok']);
    assert.deepEqual(warnings(), []);
  });

  it('skips a front-matter slug that could escape, and a bad lang', async () => {
    await writeFile(path.join(dir, 'a.md'), post('A', 'slug = "../etc"\n'));
    await writeFile(path.join(dir, 'b.md'), post('B', 'lang = "english"\n'));
    await writeFile(path.join(dir, 'c.md'), post('C', 'cover = "javascript:alert(1)"\n'));
    await writeFile(path.join(dir, 'd.md'), post('D', 'tags = "not-a-list"\n'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    assert.deepEqual((await library.refresh()).posts, []);
    assert.deepEqual(warnings().sort(), [
      'a.md: the slug "../etc" contains a slash, "?", "#", white space or a control character',
      'b.md: lang "english" is not a language code such as "en" or "pt-BR"',
      'c.md: cover is neither an http(s) URL nor a path',
      'd.md: tags must be a list of strings',
    ]);
  });

  it('serves nothing while content_dir is missing, says so once, and picks it up when it appears', async () => {
    const content = path.join(dir, 'posts');
    const library = createPostLibrary(content, parseContext(), logs.logger);
    assert.deepEqual((await library.refresh()).posts, []);
    await library.refresh();
    assert.equal(logs.lines().filter((line) => line.event === 'content_dir_missing').length, 1);
    await mkdir(content);
    await writeFile(path.join(content, 'a.md'), post('A'));
    const found = await library.refresh();
    assert.deepEqual([found.changed, found.posts.length], [true, 1]);
    await rm(content, { recursive: true });
    const gone = await library.refresh();
    assert.deepEqual([gone.changed, gone.posts.length], [true, 0]);
  });

  it('reads a body from its file when asked, the body as loaded while the file is unchanged', async () => {
    const text = '+++\ntitle = "Body"\ndate = 2024-01-01\nexcerpt = "Given"\n+++\n\nFirst **paragraph** été.\n\nSecond.\n';
    await writeFile(path.join(dir, 'body.md'), text);
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const [loaded] = (await library.refresh()).posts;
    assert.equal(loaded!.body, 'First **paragraph** été.\n\nSecond.\n');
    assert.equal(loaded!.body, loaded!.body, 'each read gives the same text');
    assert.equal(loaded!.excerpt, 'Given');
    assert.equal(loaded!.readingTime, 1);
  });

  it('gives a changed file\'s body as it is now until the next refresh, and an empty body for a removed file', async () => {
    await writeFile(path.join(dir, 'moving.md'), post('Moving'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    const [loaded] = (await library.refresh()).posts;
    await writeFile(path.join(dir, 'moving.md'), '+++\ntitle = "A much longer title than before"\ndate = 2024-01-01\n+++\nNew text.\n');
    assert.equal(loaded!.body, 'New text.\n');
    await rm(path.join(dir, 'moving.md'));
    assert.equal(loaded!.body, '');
  });

  it('looks at the named paths alone when a refresh names them: files, new folders, removed ones', async () => {
    await writeFile(path.join(dir, 'a.md'), post('A'));
    await writeFile(path.join(dir, 'b.md'), post('B'));
    await mkdir(path.join(dir, 'gone'));
    await writeFile(path.join(dir, 'gone', 'index.md'), post('Gone'));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    await library.refresh();
    const titles = (result: { posts: Array<{ slug: string; title: string }> }) => Object.fromEntries(result.posts.map((entry) => [entry.slug, entry.title]));

    await writeFile(path.join(dir, 'a.md'), post('A2', 'tags = ["x"]\n'));
    await writeFile(path.join(dir, 'b.md'), post('B2', 'tags = ["y"]\n'));
    await mkdir(path.join(dir, 'new'));
    await writeFile(path.join(dir, 'new', 'index.md'), post('New'));
    await rm(path.join(dir, 'gone'), { recursive: true });
    const partial = await library.refresh(['a.md', 'new', 'gone', '.hidden', 'too/deep/file.md']);
    assert.deepEqual(titles(partial), { a: 'A2', b: 'B', new: 'New' }, 'b.md was not named: it waits for a full look');
    assert.ok(partial.directories.includes(path.join(dir, 'new')));
    assert.ok(!partial.directories.includes(path.join(dir, 'gone')));

    const full = await library.refresh();
    assert.deepEqual(titles(full), { a: 'A2', b: 'B2', new: 'New' });
  });

  it('keeps what a look at named paths found while a look at everything was listing content_dir', async () => {
    // More than one slice of files, so that the look at everything yields to the event loop midway.
    for (let index = 0; index < 600; index += 1) await writeFile(path.join(dir, `p${index}.md`), post(`P${index}`));
    const library = createPostLibrary(dir, parseContext(), logs.logger);
    await library.refresh();

    const everything = library.refresh();
    // content_dir is listed, and the look at everything is stat-ing: a new file and a new folder come, and a
    // file event names them. (Synchronous calls: the look at everything must not go on meanwhile.)
    writeFileSync(path.join(dir, 'late.md'), post('Late'));
    mkdirSync(path.join(dir, 'folder'));
    writeFileSync(path.join(dir, 'folder', 'index.md'), post('Folder'));
    const named = await library.refresh(['late.md', 'folder']);
    assert.ok(named.posts.some((entry) => entry.slug === 'late'));

    const full = await everything;
    const slugs = new Set(full.posts.map((entry) => entry.slug));
    assert.ok(slugs.has('late') && slugs.has('folder'), 'the look at everything did not see them, and keeps them');
    assert.ok(full.directories.includes(path.join(dir, 'folder')));
    assert.equal(full.posts.length, 602);
    assert.equal(full.filesRead, 0);

    const again = await library.refresh();
    assert.equal(again.posts.length, 602);
    assert.equal(again.changed, false);
  });
});
