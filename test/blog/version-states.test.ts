// The listing of every post file with its state, for the administration interface (src/blog/post-version-state.ts).
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createTempDir } from '../support/temp-dir.js';
import { createFakeTime } from './fake-time.js';
import { startBlog } from './fixture.js';

describe('BlogService.listAllVersions', () => {
  it('lists every fixture file with its state at the clock\'s moment, broken ones with the logged reason', async () => {
    const time = createFakeTime(Date.parse('2024-03-11T00:00:00Z'));
    const blog = await startBlog(undefined, { deps: { clock: time.clock, timers: time } });
    try {
      const states = blog.content.listAllVersions();
      const brief = Object.fromEntries(states.map((entry) => [entry.file, entry.reason ? `${entry.state}: ${entry.reason}` : entry.state]));
      assert.deepEqual(Object.keys(brief), [...Object.keys(brief)].sort(), 'in path order');
      assert.equal(brief['alpha.md'], 'published');
      assert.equal(brief['alpha.de.md'], 'draft');
      assert.equal(brief['draft-only.md'], 'draft');
      assert.equal(brief['beta/index.fr.md'], 'scheduled', 'dated 2024-03-12');
      assert.equal(brief['gamma.md'], 'scheduled', 'dated 2024-03-11T09:00:00+02:00');
      assert.equal(brief['broken-no-date.md'], 'broken: date is required');
      assert.match(brief['broken-bad-toml.md']!, /^broken: invalid TOML front matter at line 2, column 18: /);
      assert.equal(states.filter((entry) => entry.state === 'broken').length, 6);
      const logged = blog.logs.lines().filter((line) => line.event === 'post_skipped').map((line) => [line.file, line.reason]);
      assert.deepEqual(states.filter((entry) => entry.state === 'broken').map((entry) => [entry.file, entry.reason]), logged.sort());

      assert.deepEqual(states.find((entry) => entry.file === 'custom-slug.md'), {
        file: 'custom-slug.md', slug: 'renamed', language: 'en', title: 'Custom slug', date: '2023-08-01', state: 'published',
      });
      assert.deepEqual(states.find((entry) => entry.file === 'gamma.md')?.date, '2024-03-11T09:00:00+02:00');
      assert.deepEqual(states.find((entry) => entry.file === 'broken-no-title.md'), {
        file: 'broken-no-title.md', slug: 'broken-no-title', language: 'en', state: 'broken', reason: 'title is required',
      });

      await time.advance(7 * 3600 * 1000);
      const later = blog.content.listAllVersions();
      assert.equal(later.find((entry) => entry.file === 'gamma.md')?.state, 'published', 'the state follows the clock');
      assert.equal(later.find((entry) => entry.file === 'beta/index.fr.md')?.state, 'scheduled');
    } finally {
      await blog.close();
    }
  });

  it('a duplicate keeps its title and date and says which file it lost to', async () => {
    const { dir, remove } = await createTempDir('blog-versions');
    try {
      await writeFile(path.join(dir, 'hello.md'), '+++\ntitle = "Hello"\ndate = 2024-01-01\n+++\n');
      await mkdir(path.join(dir, 'hello'));
      await writeFile(path.join(dir, 'hello', 'index.md'), '+++\ntitle = "Hello in a folder"\ndate = 2024-01-02\n+++\n');
      await writeFile(path.join(dir, 'notes.fr.md'), '+++\ntitle = "Sans date"\n+++\n');
      const blog = await startBlog(dir);
      try {
        assert.deepEqual(blog.content.listAllVersions(), [
          { file: 'hello.md', slug: 'hello', language: 'en', title: 'Hello', date: '2024-01-01', state: 'published' },
          { file: 'hello/index.md', slug: 'hello', language: 'en', title: 'Hello in a folder', date: '2024-01-02', state: 'broken', reason: 'duplicate of hello.md (slug "hello", lang "en")' },
          { file: 'notes.fr.md', slug: 'notes', language: 'fr', state: 'broken', reason: 'date is required' },
        ]);
      } finally {
        await blog.close();
      }
    } finally {
      await remove();
    }
  });
});
