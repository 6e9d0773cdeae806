// The feeds and the sitemap checked by real validators: xmllint against the RSS 2.0 and sitemaps.org
// schemas, rss-parser as a real feed reader, ajv against the JSON Feed 1.1 schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import Parser from 'rss-parser';
import { createTempDir } from '../support/temp-dir.js';
import { FIXTURES, startBlog, type RunningBlog } from './fixture.js';
import { validateXml } from './xmllint.js';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;
const schemas = path.join(FIXTURES, 'schemas');

let blog: RunningBlog;
let scratch: { dir: string; remove: () => Promise<void> };
before(async () => {
  blog = await startBlog();
  scratch = await createTempDir('blog-feeds');
});
after(async () => {
  await blog.close();
  await scratch.remove();
});

describe('RSS 2.0 feed', () => {
  it('is served as application/rss+xml and validates against the RSS 2.0 schema', async () => {
    const response = await blog.request('/api/blog/feed.xml');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/rss+xml; charset=utf-8');
    const result = validateXml(response.body, path.join(schemas, 'rss-2_0.xsd'), scratch.dir);
    assert.ok(result.valid, result.output);
  });

  it('the schema check bites: a feed with an ISO pubDate is refused', async () => {
    const { body } = await blog.request('/api/blog/feed.xml');
    const broken = body.replace(/<pubDate>[^<]*<\/pubDate>/, '<pubDate>2024-03-11</pubDate>');
    assert.equal(validateXml(broken, path.join(schemas, 'rss-2_0.xsd'), scratch.dir).valid, false);
  });

  it('declares the atom, content and dc namespaces and links itself on base_url', async () => {
    const { body } = await blog.request('/api/blog/feed.xml');
    assert.match(body, /<rss version="2\.0" xmlns:atom="http:\/\/www\.w3\.org\/2005\/Atom" xmlns:content="http:\/\/purl\.org\/rss\/1\.0\/modules\/content\/" xmlns:dc="http:\/\/purl\.org\/dc\/elements\/1\.1\/">/);
    assert.match(body, /<atom:link href="https:\/\/blog\.example\.com\/api\/blog\/feed\.xml" rel="self" type="application\/rss\+xml"\/>/);
    assert.match(body, /<lastBuildDate>Mon, 11 Mar 2024 07:00:00 GMT<\/lastBuildDate>/, 'the newest post date');
  });

  it('reads back through a real feed parser: dc:creator, content:encoded, categories, RFC 822 dates', async () => {
    const { body } = await blog.request('/api/blog/feed.xml');
    const feed = await new Parser().parseString(body);
    assert.equal(feed.title, 'Fixture Blog');
    assert.equal(feed.link, 'https://blog.example.com');
    assert.equal(feed.description, 'Posts & notes');
    assert.equal(feed.language, 'en');
    assert.deepEqual(
      feed.items.map((item) => item.title),
      ['Gamma & <friends>', 'Alpha', 'Beta', 'Delta (es)', 'Epsilon', 'Été à Paris', 'Eta', 'Theta', 'Node.js notes', 'Custom slug'],
      'primary versions only, newest first',
    );
    const gamma = feed.items[0]!;
    assert.equal(gamma.link, 'https://blog.example.com/blog/gamma');
    assert.equal(gamma.guid, 'https://blog.example.com/blog/gamma');
    assert.equal(gamma.pubDate, 'Mon, 11 Mar 2024 07:00:00 GMT');
    assert.equal(gamma.creator, '@site@example.social', 'dc:creator: the site default when the post has no valid handle');
    assert.deepEqual(gamma.categories, ['Web', 'Zig']);
    assert.match(String(gamma['content:encoded']), /^<p>word word/);
    assert.match(String(gamma['content:encoded']), /<pre><code class="language-text">code code/);
    const beta = feed.items[2]!;
    assert.equal(beta.creator, '@bea@example.social', "dc:creator: the post's own handle");
    assert.equal(beta.content, 'Beta lives in a folder. This is the part before the marker, with a link.', 'description is the excerpt');
  });

  it('holds at most the 20 newest posts and no dc:creator without any handle', async () => {
    const { dir, remove } = await createTempDir('blog-feed-20');
    try {
      const { writeFileSync } = await import('node:fs');
      for (let day = 1; day <= 25; day += 1) {
        writeFileSync(path.join(dir, `post-${day}.md`), `+++\ntitle = "Post ${day}"\ndate = 2024-01-${String(day).padStart(2, '0')}\n+++\n\nText \u0001 ${day}.\n`);
      }
      const many = await startBlog(dir, { overrides: { site: { fediverse_creator: undefined } } });
      try {
        const { body } = await many.request('/api/blog/feed.xml');
        assert.ok(validateXml(body, path.join(schemas, 'rss-2_0.xsd'), scratch.dir).valid);
        const feed = await new Parser().parseString(body);
        assert.equal(feed.items.length, 20);
        assert.equal(feed.items[0]!.title, 'Post 25');
        assert.equal(feed.items[19]!.title, 'Post 6');
        assert.ok(!body.includes('dc:creator>'), 'no creator element without a handle');
        assert.ok(!body.includes('\u0001'), 'characters XML 1.0 forbids are removed');
        const json = (await many.request('/api/blog/feed.json')).json;
        assert.equal(json.items.length, 20);
        assert.equal(json.items[0].authors, undefined);
      } finally {
        await many.close();
      }
    } finally {
      await remove();
    }
  });
});

/** ajv with the JSON Feed 1.1 schema. */
const validate = () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(path.join(schemas, 'jsonfeed-schema-v1.1.json'), 'utf8')));
};

describe('JSON Feed 1.1', () => {
  it('validates against the JSON Feed 1.1 schema with ajv', async () => {
    const response = await blog.request('/api/blog/feed.json');
    assert.equal(response.headers['content-type'], 'application/feed+json; charset=utf-8');
    const check = validate();
    assert.ok(check(response.json), JSON.stringify(check.errors));
  });

  it('the schema check bites: an item without id is refused', async () => {
    const { json } = await blog.request('/api/blog/feed.json');
    delete json.items[0].id;
    assert.equal(validate()(json), false);
  });

  it('has the fields docs/blog.md "Feeds and sitemap" lists', async () => {
    const { json } = await blog.request('/api/blog/feed.json');
    assert.deepEqual(
      { ...json, items: undefined },
      {
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Fixture Blog',
        home_page_url: 'https://blog.example.com',
        feed_url: 'https://blog.example.com/api/blog/feed.json',
        description: 'Posts & notes',
        language: 'en',
        items: undefined,
      },
    );
    assert.equal(json.items.length, 10);
    const [gamma, alpha, beta] = json.items;
    assert.deepEqual(Object.keys(gamma), ['id', 'url', 'title', 'content_html', 'summary', 'date_published', 'tags', 'image', 'authors']);
    assert.equal(gamma.id, 'https://blog.example.com/blog/gamma');
    assert.equal(gamma.date_published, '2024-03-11T09:00:00+02:00');
    assert.equal(gamma.image, 'https://blog.example.com/images/gamma.jpg');
    assert.deepEqual(gamma.authors, [{ name: '@site@example.social' }]);
    assert.equal(alpha.date_published, '2024-03-10T00:00:00Z');
    assert.equal(alpha.image, undefined);
    assert.deepEqual(beta.authors, [{ name: '@bea@example.social' }]);
    assert.equal(beta.summary, 'Beta lives in a folder. This is the part before the marker, with a link.');
    assert.match(beta.content_html, /<p>This part comes after the marker/);
  });

  it('has date_modified for an updated post', async () => {
    const { dir, remove } = await createTempDir('blog-feed-updated');
    try {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(dir, 'a.md'), '+++\ntitle = "A"\ndate = 2024-01-01\nupdated = 2024-02-01T10:00:00Z\n+++\nText\n');
      const one = await startBlog(dir);
      try {
        const { json } = await one.request('/api/blog/feed.json');
        assert.equal(json.items[0].date_modified, '2024-02-01T10:00:00Z');
        assert.ok(validate()(json));
      } finally {
        await one.close();
      }
    } finally {
      await remove();
    }
  });
});

describe('a post with an image beside it', () => {
  it('carries absolute media URLs in content:encoded and content_html, and both feeds stay valid', async () => {
    const { dir, remove } = await createTempDir('blog-feed-image');
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(path.join(dir, 'trip'));
      writeFileSync(
        path.join(dir, 'trip', 'index.md'),
        '+++\ntitle = "Trip"\ndate = 2024-01-01\n+++\n\n![The lake](lake.png) and [the map](./map.png), [a friend](https://example.org/) and [top](#top).\n',
      );
      writeFileSync(path.join(dir, 'trip', 'lake.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const one = await startBlog(dir);
      try {
        const expected =
          '<p><img src="https://blog.example.com/api/blog/media/trip/lake.png" alt="The lake" /> and ' +
          '<a href="https://blog.example.com/api/blog/media/trip/map.png">the map</a>, <a href="https://example.org/">a friend</a> and <a href="#top">top</a>.</p>\n';
        const rss = (await one.request('/api/blog/feed.xml')).body;
        const result = validateXml(rss, path.join(schemas, 'rss-2_0.xsd'), scratch.dir);
        assert.ok(result.valid, result.output);
        const item = (await new Parser().parseString(rss)).items[0]!;
        assert.equal(item['content:encoded'], expected);
        const json = (await one.request('/api/blog/feed.json')).json;
        assert.equal(json.items[0].content_html, expected);
        assert.ok(validate()(json));
        assert.equal((await one.request('/api/blog/posts/trip')).json.html, expected, 'the detail has the same HTML');
      } finally {
        await one.close();
      }
    } finally {
      await remove();
    }
  });
});

describe('sitemap', () => {
  it('validates with xmllint against the sitemaps.org 0.9 schema with xhtml:link declared', async () => {
    const response = await blog.request('/api/blog/sitemap.xml');
    assert.equal(response.headers['content-type'], 'application/xml; charset=utf-8');
    const result = validateXml(response.body, path.join(schemas, 'sitemap-with-hreflang.xsd'), scratch.dir);
    assert.ok(result.valid, result.output);
  });

  it('the schema check bites: lastmod after xhtml:link breaks the url sequence', async () => {
    const { body } = await blog.request('/api/blog/sitemap.xml');
    const broken = body.replace(/(<lastmod>[^<]*<\/lastmod>)\n(<xhtml:link[^>]*\/>)/, '$2\n$1');
    assert.notEqual(broken, body);
    assert.equal(validateXml(broken, path.join(schemas, 'sitemap-with-hreflang.xsd'), scratch.dir).valid, false);
  });

  it('stays valid with no published post: it lists the home page', async () => {
    const empty = await createTempDir('blog-empty');
    const none = await startBlog(empty.dir);
    try {
      const { body } = await none.request('/api/blog/sitemap.xml');
      assert.match(body, /<url>\n<loc>https:\/\/blog\.example\.com\/<\/loc>\n<\/url>/);
      const result = validateXml(body, path.join(schemas, 'sitemap-with-hreflang.xsd'), scratch.dir);
      assert.ok(result.valid, result.output);
    } finally {
      await none.close();
      await empty.remove();
    }
  });

  it('lists every published version with lastmod and hreflang alternates, itself included', async () => {
    const { body } = await blog.request('/api/blog/sitemap.xml');
    const urls = [...body.matchAll(/<url>\n<loc>([^<]*)<\/loc>\n<lastmod>([^<]*)<\/lastmod>\n((?:<xhtml:link[^>]*\/>\n)*)<\/url>/g)].map(
      ([, loc, lastmod, links]) => ({ loc, lastmod, alternates: [...links!.matchAll(/hreflang="([^"]*)" href="([^"]*)"/g)].map(([, lang, href]) => `${lang} ${href}`) }),
    );
    assert.equal(urls.length, 14, 'every published version, drafts left out');
    const base = 'https://blog.example.com';
    const alphaAlternates = [`en ${base}/blog/alpha`, `fr ${base}/fr/blog/alpha`];
    assert.deepEqual(urls.find((url) => url.loc === `${base}/blog/alpha`), { loc: `${base}/blog/alpha`, lastmod: '2024-03-10', alternates: alphaAlternates });
    assert.deepEqual(urls.find((url) => url.loc === `${base}/fr/blog/alpha`), { loc: `${base}/fr/blog/alpha`, lastmod: '2024-03-10', alternates: alphaAlternates });
    assert.equal(urls.find((url) => url.loc === `${base}/fr/blog/beta`)?.lastmod, '2024-03-20T08:00:00Z', 'updated wins over date');
    assert.deepEqual(urls.find((url) => url.loc === `${base}/blog/gamma`), { loc: `${base}/blog/gamma`, lastmod: '2024-03-11T09:00:00+02:00', alternates: [] });
    assert.deepEqual(
      urls.find((url) => url.loc === `${base}/blog/delta`)?.alternates,
      [`es ${base}/blog/delta`, `fr ${base}/fr/blog/delta`],
      'delta\'s primary is Spanish: post_url',
    );
    assert.ok(!body.includes('/de/blog/alpha'), 'drafts are not in the sitemap');
  });
});
