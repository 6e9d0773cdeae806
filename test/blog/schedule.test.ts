// Scheduled posts (docs/blog.md "Scheduled posts"): a future date keeps a version out of every answer until
// that moment, then it appears by itself. The service runs on real files with a fake clock and fake timers,
// so the test moves time instead of waiting; one test waits a real second through the real timers.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { buildCatalog, groupBySlug, findPost, isCatalogCurrent } from '../../src/blog/catalog/catalog.js';
import { visibilityOf } from '../../src/blog/catalog/visibility.js';
import { normalizeDate } from '../../src/blog/content/dates.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { createFakeTime, type FakeTime } from './fake-time.js';
import { blogConfig, listed, loadCatalog, startBlog, type RunningBlog } from './fixture.js';

const START = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3600 * 1000;
const iso = (time: number) => new Date(time).toISOString().replace('.000Z', 'Z');
const post = (title: string, date: string, extra = '', body = `Text of ${title}.`) => `+++\ntitle = "${title}"\ndate = ${date}\n${extra}+++\n\n${body}\n`;

describe('visibilityOf: the one rule', () => {
  const at = (text: string) => normalizeDate(text)!;
  const cases: Array<[string, boolean, string, number, string]> = [
    ['a past date', false, '2029-12-31', START, 'published'],
    ['a plain date is midnight UTC: published at that very moment', false, '2030-01-01', START, 'published'],
    ['a plain date one millisecond early', false, '2030-01-01', START - 1, 'scheduled'],
    ['a date-time with an offset, before it', false, '2030-01-01T09:00:00+02:00', START + 7 * HOUR - 1, 'scheduled'],
    ['a date-time with an offset, at it', false, '2030-01-01T09:00:00+02:00', START + 7 * HOUR, 'published'],
    ['draft wins over a past date', true, '2020-01-01', START, 'draft'],
    ['draft wins over a future date', true, '2031-01-01', START, 'draft'],
  ];
  for (const [name, draft, date, now, expected] of cases) {
    it(name, () => assert.equal(visibilityOf({ draft, date: at(date) }, now), expected));
  }
});

describe('the catalog at a moment', () => {
  it('leaves scheduled versions out and says until when it holds', async () => {
    const { dir, remove } = await createTempDir('blog-schedule-catalog');
    try {
      await writeFile(path.join(dir, 'old.md'), post('Old', '2029-06-01'));
      await writeFile(path.join(dir, 'old.fr.md'), post('Vieux', iso(START + HOUR)));
      await writeFile(path.join(dir, 'soon.md'), post('Soon', iso(START + 2 * HOUR)));
      const before = (await loadCatalog(dir, {}, START)).catalog;
      assert.deepEqual(before.published.map((entry) => entry.post.file), ['old.md']);
      assert.deepEqual(before.primaries[0]!.translations, {});
      assert.deepEqual(findPost(before, 'soon', undefined), { kind: 'not_found' }, 'not_found, never draft');
      assert.deepEqual(findPost(before, 'old', 'fr'), { kind: 'not_found' });
      assert.deepEqual([before.shownSince, before.nextRelease], [Date.parse('2029-06-01'), START + HOUR]);
      assert.equal(isCatalogCurrent(before, START + HOUR - 1), true);
      assert.equal(isCatalogCurrent(before, START + HOUR), false);

      const { posts } = await loadCatalog(dir, {}, START);
      const config = blogConfig(dir);
      const later = buildCatalog(groupBySlug(posts), config.site!, config.blog!, START + HOUR, before);
      assert.deepEqual(later.published.map((entry) => entry.post.file), ['old.fr.md', 'old.md'], 'newest first');
      assert.deepEqual(later.primaries[0]!.translations, { fr: '/api/blog/posts/old?lang=fr' });
      assert.notEqual(later.groups.get('old'), before.groups.get('old'), 'the group with a release is built again');
      assert.equal(later.nextRelease, START + 2 * HOUR);
      const same = buildCatalog(groupBySlug(posts), config.site!, config.blog!, START + HOUR + 1, later);
      assert.equal(same.groups.get('old'), later.groups.get('old'), 'nothing came due: the group is kept');
      assert.equal(isCatalogCurrent(later, START), false, 'a clock set back needs a new catalog too');
    } finally {
      await remove();
    }
  });
});

describe('the service publishes scheduled posts on time', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let time: FakeTime;
  let blog: RunningBlog;
  beforeEach(async () => {
    ({ dir, remove } = await createTempDir('blog-schedule'));
    await writeFile(path.join(dir, 'old.md'), post('Old', '2029-06-01', 'tags = ["web"]\n'));
    await writeFile(path.join(dir, 'old.fr.md'), post('Vieux', iso(START + HOUR)));
    await writeFile(path.join(dir, 'soon.md'), post('Soon', iso(START + HOUR), 'tags = ["web", "Upcoming"]\n', 'A scheduledword here.'));
    await mkdir(path.join(dir, 'later'));
    await writeFile(path.join(dir, 'later', 'index.md'), post('Later', '2030-02-15'));
    await writeFile(path.join(dir, 'held.md'), post('Held', iso(START + HOUR), 'draft = true\n'));
    time = createFakeTime(START);
    blog = await startBlog(dir, { deps: { clock: time.clock, timers: time } });
  });
  afterEach(async () => {
    await blog.close();
    await remove();
  });

  const titles = async () => ((await blog.request('/api/blog/posts')).json.posts as Array<{ title: string }>).map((entry) => entry.title);

  it('keeps a scheduled post out of every answer, then shows it everywhere at its moment', async () => {
    const etag = (await blog.request('/api/blog/posts')).headers.etag;
    const hidden = async () => {
      assert.deepEqual(await titles(), ['Old']);
      assert.deepEqual((await blog.request('/api/blog/tags')).json, { tags: [{ name: 'web', count: 1 }] });
      assert.equal((await blog.request('/api/blog/posts?q=scheduledword')).json.total, 0);
      assert.deepEqual((await blog.request('/api/blog/posts/soon')).json, { error: 'not_found' });
      assert.equal((await blog.request('/api/blog/posts/soon')).status, 404);
      assert.deepEqual((await blog.request('/api/blog/posts/old?lang=fr')).json, { error: 'not_found' });
      assert.deepEqual((await blog.request('/api/blog/posts/old')).json.translations, {});
      assert.doesNotMatch((await blog.request('/api/blog/feed.xml')).body, /Soon/);
      assert.deepEqual((await blog.request('/api/blog/feed.json')).json.items.map((item: { title: string }) => item.title), ['Old']);
      const sitemap = (await blog.request('/api/blog/sitemap.xml')).body;
      assert.doesNotMatch(sitemap, /soon|hreflang="fr"/);
      assert.deepEqual((await blog.request('/health')).json, { status: 'ok', posts: 1 });
      assert.deepEqual((await blog.request('/api/blog/posts/held')).json, { error: 'draft' }, 'a draft stays a draft');
    };
    await hidden();
    assert.deepEqual(time.pending(), [START + HOUR], 'one timer, to the earliest scheduled date');

    await time.advance(HOUR - 1);
    await hidden();

    await time.advance(1);
    await waitFor('the release', async () => ((await titles()).includes('Soon') ? true : undefined), 5000);
    assert.deepEqual(await titles(), ['Soon', 'Old']);
    assert.notEqual((await blog.request('/api/blog/posts')).headers.etag, etag, 'caches see the new list');
    assert.deepEqual((await blog.request('/api/blog/tags')).json, { tags: [{ name: 'web', count: 2 }, { name: 'Upcoming', count: 1 }] });
    assert.deepEqual(listed((await blog.request('/api/blog/posts?q=scheduledword')).json.posts), ['soon']);
    assert.equal((await blog.request('/api/blog/posts/soon')).json.title, 'Soon');
    assert.equal((await blog.request('/api/blog/posts/old?lang=fr')).json.title, 'Vieux');
    assert.deepEqual((await blog.request('/api/blog/posts/old')).json.translations, { fr: '/api/blog/posts/old?lang=fr' });
    assert.match((await blog.request('/api/blog/feed.xml')).body, /<title>Soon<\/title>/);
    assert.deepEqual((await blog.request('/api/blog/feed.json')).json.items.map((item: { title: string }) => item.title), ['Soon', 'Old']);
    assert.match((await blog.request('/api/blog/sitemap.xml')).body, /hreflang="fr"/);
    assert.deepEqual((await blog.request('/health')).json, { status: 'ok', posts: 3 });
    assert.deepEqual((await blog.request('/api/blog/posts/held')).json, { error: 'draft' });
    assert.deepEqual(time.pending(), [START + HOUR + 2 ** 31 - 1], 'the next release, more than 24.8 days ahead, waits in steps');

    await time.advance(Date.parse('2030-02-15') - time.now());
    await waitFor('the second release', async () => ((await titles()).includes('Later') ? true : undefined), 5000);
    assert.deepEqual(await titles(), ['Later', 'Soon', 'Old']);
    assert.deepEqual(time.pending(), [], 'nothing left to publish');
  });
});

describe('with the real clock and timers', () => {
  it('a post scheduled a second ahead appears in /api/blog/posts by itself', async () => {
    const { dir, remove } = await createTempDir('blog-schedule-real');
    const blog = await startBlog(dir, { deps: { rescanIntervalMs: 0 } });
    try {
      const due = Math.ceil((Date.now() + 1500) / 1000) * 1000;
      await writeFile(path.join(dir, 'due.md'), post('Due', iso(due)));
      await waitFor('the file to be read', async () => (blog.logs.lines().filter((line) => line.event === 'blog_content_loaded').length >= 2 ? true : undefined), 10_000);
      if (Date.now() < due) assert.deepEqual((await blog.request('/api/blog/posts')).json.posts, []);
      // By itself: nothing but the service's own timer can list it (no rescans). How late is the machine's business;
      // the fake-time tests above check the moment to the millisecond.
      const seen = await waitFor('the scheduled post', async () => ((await blog.request('/api/blog/posts')).json.total === 1 ? Date.now() : undefined), 30_000);
      assert.ok(seen >= due, 'not before its moment');
    } finally {
      await blog.close();
      await remove();
    }
  });
});
