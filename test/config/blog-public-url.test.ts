// `[blog] public_url` (where the blog API is reached from outside; media URLs are built on it) and the check
// that `blog.content_dir` is a folder, which `postbox check` and `serve` make through loadConfigFile.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfigFile, parseConfigText } from '../../src/config/load.js';
import { createTempDir } from '../support/temp-dir.js';

const blog = (extra = '', contentDir = 'posts') => `
[site]
title = "Blog"
base_url = "https://example.com/"

[blog]
listen = "127.0.0.1:8081"
content_dir = "${contentDir}"
${extra}
`;

describe('[blog] public_url', () => {
  it('is site.base_url by default', () => {
    const result = parseConfigText(blog(), {}, '/srv/site');
    assert.ok(result.ok);
    assert.equal(result.config.blog?.public_url, 'https://example.com');
  });

  it('takes an http(s) URL, its trailing slash dropped', () => {
    const result = parseConfigText(blog('public_url = "http://127.0.0.1:8081/"'), {}, '/srv/site');
    assert.ok(result.ok);
    assert.equal(result.config.blog?.public_url, 'http://127.0.0.1:8081');
    assert.equal(result.config.site?.base_url, 'https://example.com');
  });

  it('refuses what is no base URL, at its key path', () => {
    for (const given of ['ftp://example.com', 'not a url', 'https://example.com/?a=1']) {
      const result = parseConfigText(blog(`public_url = "${given}"`), {}, '/srv/site');
      assert.equal(result.ok, false, given);
      assert.equal(result.ok ? '' : result.problems[0]?.path, 'blog.public_url', given);
    }
  });
});

describe('blog.content_dir', () => {
  let temp: { dir: string; remove: () => Promise<void> };
  before(async () => {
    temp = await createTempDir('config-content-dir');
  });
  after(async () => {
    await temp.remove();
  });

  it('must be a folder: a missing one is a problem at blog.content_dir', async () => {
    const file = path.join(temp.dir, 'missing.toml');
    await writeFile(file, blog('', 'no-such-posts'));
    const result = await loadConfigFile(file, {});
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.problems.length, 1);
    assert.equal(result.problems[0]?.path, 'blog.content_dir');
    assert.match(result.problems[0]?.message ?? '', /does not exist/);
    assert.ok(result.problems[0]?.message.includes(path.join(temp.dir, 'no-such-posts')), 'names the folder it looked for');
  });

  it('a file in its place is a problem too; an existing folder loads', async () => {
    await writeFile(path.join(temp.dir, 'a-file'), '');
    const fileInPlace = path.join(temp.dir, 'file.toml');
    await writeFile(fileInPlace, blog('', 'a-file'));
    const refused = await loadConfigFile(fileInPlace, {});
    assert.equal(refused.ok ? '' : refused.problems[0]?.path, 'blog.content_dir');

    await mkdir(path.join(temp.dir, 'posts'));
    const good = path.join(temp.dir, 'good.toml');
    await writeFile(good, blog());
    const loaded = await loadConfigFile(good, {});
    assert.ok(loaded.ok, JSON.stringify(loaded));
    assert.equal(loaded.config.blog?.content_dir, path.join(temp.dir, 'posts'));
  });
});
