// Table tests of parsing and of the catalog over the fixture posts (test/fixtures/blog/posts).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { findPost, type Catalog } from '../../src/blog/catalog/catalog.js';
import { createSummary } from '../../src/blog/catalog/summary.js';
import { countTags } from '../../src/blog/catalog/tags.js';
import { loadCatalog, type LoadedFixtures } from './fixture.js';

let fixtures: LoadedFixtures;
let catalog: Catalog;
before(async () => {
  fixtures = await loadCatalog();
  catalog = fixtures.catalog;
});

const summaryOf = (slug: string, lang?: string) => {
  const found = findPost(catalog, slug, lang);
  assert.equal(found.kind, 'found', `${slug} ${lang ?? ''} should be found`);
  return found.kind === 'found' ? createSummary(found.entry) : assert.fail();
};

describe('broken files are skipped with one warning each, naming the file and the reason', () => {
  const expected: Record<string, RegExp> = {
    'broken-no-title.md': /^title is required$/,
    'broken-no-date.md': /^date is required$/,
    'broken-bad-toml.md': /^invalid TOML front matter at line 2, column 18: /,
    'broken-bad-date.md': /^date must be YYYY-MM-DD or an RFC 3339 date-time/,
    'broken-no-front-matter.md': /^no front matter/,
    'broken-unclosed.md': /^YAML front matter is not closed/,
  };
  it('logs exactly these skips, once each', () => {
    const skipped = fixtures.logs.lines().filter((line) => line.event === 'post_skipped');
    assert.deepEqual(skipped.map((line) => line.file).sort(), Object.keys(expected).sort());
    for (const line of skipped) {
      assert.equal(line.level, 40);
      assert.match(String(line.reason), expected[String(line.file)]!);
      assert.match(String(line.msg), new RegExp(String(line.file).replace('.', '\\.')), 'the message names the file too');
    }
  });
  it('ignores an invalid per-post fediverse_creator with a warning and keeps the post', () => {
    const warnings = fixtures.logs.lines().filter((line) => line.event === 'post_warning');
    assert.deepEqual(
      warnings.map((line) => [line.file, line.reason]),
      [['gamma.md', 'fediverse_creator "jane@example" is not an @user@host handle; it is ignored']],
    );
    assert.equal(summaryOf('gamma').fediverse_creator, '@site@example.social');
  });
  it('serves every other post', () => {
    assert.equal(catalog.published.length, 14);
    assert.deepEqual([...catalog.groups.keys()].sort(), ['alpha', 'beta', 'delta', 'draft-only', 'epsilon', 'eta', 'gamma', 'node.js', 'renamed', 'theta', 'zeta']);
  });
});

describe('primary version: site.language, else no language suffix, else the smallest language code', () => {
  const cases: Array<[string, string, string]> = [
    ['alpha', 'en', 'alpha.md is in site.language'],
    ['beta', 'en', 'beta/index.md is in site.language'],
    ['delta', 'es', 'only delta.es.md and delta.fr.md: the smallest code'],
    ['epsilon', 'pt', 'epsilon.md (lang = "pt", no suffix) beats epsilon.it.md although "it" < "pt"'],
  ];
  for (const [slug, lang, why] of cases) {
    it(`${slug}: ${lang} (${why})`, () => {
      const summary = summaryOf(slug);
      assert.equal(summary.lang, lang);
      assert.equal(summary.url, `/api/blog/posts/${slug}`);
    });
  }
  it('lists primary versions only, newest first, ties by slug', () => {
    assert.deepEqual(
      catalog.primaries.map((entry) => entry.post.slug),
      ['gamma', 'alpha', 'beta', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'node.js', 'renamed'],
    );
  });
});

describe('translations: every other published language -> its API URL', () => {
  const cases: Array<[string, string | undefined, Record<string, string>, string]> = [
    ['alpha', undefined, { fr: '/api/blog/posts/alpha?lang=fr' }, 'the draft "de" is left out'],
    ['alpha', 'fr', { en: '/api/blog/posts/alpha?lang=en' }, ''],
    ['delta', 'fr', { es: '/api/blog/posts/delta?lang=es' }, ''],
    ['gamma', undefined, {}, 'no translations'],
  ];
  for (const [slug, lang, translations, why] of cases) {
    it(`${slug}${lang ? `?lang=${lang}` : ''} ${why}`, () => assert.deepEqual(summaryOf(slug, lang).translations, translations));
  }
  it('a non-primary version has ?lang= in its url', () => {
    assert.equal(summaryOf('alpha', 'fr').url, '/api/blog/posts/alpha?lang=fr');
    assert.equal(summaryOf('alpha', 'FR').url, '/api/blog/posts/alpha?lang=fr', 'lang is compared case-insensitively');
  });
});

describe('findPost: drafts, all_langs, unknown slugs and languages', () => {
  const cases: Array<[string, string | undefined, string]> = [
    ['draft-only', undefined, 'draft'],
    ['alpha', 'de', 'draft'],
    ['alpha', 'it', 'not_found'],
    ['gamma', 'it', 'found:en'],
    ['gamma', 'fr', 'found:en'],
    ['nope', undefined, 'not_found'],
    ['../alpha', undefined, 'not_found'],
    ['custom-slug', undefined, 'not_found'],
    ['renamed', undefined, 'found:en'],
    ['node.js', undefined, 'found:en'],
  ];
  for (const [slug, lang, expected] of cases) {
    it(`${slug}${lang ? `?lang=${lang}` : ''} -> ${expected}`, () => {
      const found = findPost(catalog, slug, lang);
      assert.equal(found.kind === 'found' ? `found:${found.entry.post.lang}` : found.kind, expected);
    });
  }
});

describe('summary fields', () => {
  it('effective author and fediverse_creator: the post\'s, else the site\'s', () => {
    assert.deepEqual([summaryOf('beta').author, summaryOf('beta').fediverse_creator], ['Bea Author', '@bea@example.social']);
    assert.deepEqual([summaryOf('alpha').author, summaryOf('alpha').fediverse_creator], ['Site Author', '@site@example.social']);
  });

  it('falls back to null without site values', async () => {
    const bare = await loadCatalog(undefined, { site: { author: '', fediverse_creator: undefined } });
    const found = findPost(bare.catalog, 'alpha', undefined);
    assert.ok(found.kind === 'found');
    const summary = createSummary(found.entry);
    assert.deepEqual([summary.author, summary.fediverse_creator], [null, null]);
  });

  it('cover: null, a path made absolute on base_url, or {src, alt}', () => {
    assert.equal(summaryOf('alpha').cover, null);
    assert.deepEqual(summaryOf('gamma').cover, { url: 'https://blog.example.com/images/gamma.jpg', alt: null });
    assert.deepEqual(summaryOf('beta').cover, { url: 'https://blog.example.com/img/beta.png', alt: 'Beta cover' });
  });

  it('date is YYYY-MM-DD as written, also for RFC 3339 dates', () => {
    assert.equal(summaryOf('gamma').date, '2024-03-11');
    assert.equal(summaryOf('zeta').date, '2023-12-01');
  });

  it('excerpt: front matter, <!--more-->, first paragraph; at most 280 characters', () => {
    assert.equal(summaryOf('alpha').excerpt, 'Alpha is the first post of the fixture set. It is written in English, the site language.');
    assert.equal(summaryOf('beta').excerpt, 'Beta lives in a folder. This is the part before the marker, with a link.');
    assert.match(summaryOf('eta').excerpt, /^This excerpt comes from the front matter\. sentence0 has words .*…$/);
    assert.match(summaryOf('theta').excerpt, /^lorem0 lorem1 .*…$/);
    for (const entry of catalog.published) assert.ok(Array.from(entry.post.excerpt).length <= 280, entry.post.file);
  });

  it('reading_time leaves code blocks out (gamma: 250 words of prose, 600 in code)', () => {
    assert.equal(summaryOf('gamma').reading_time, 2);
    assert.equal(summaryOf('alpha').reading_time, 1);
  });

  it('tags keep their spelling; a repeat in another case is dropped', () => {
    assert.deepEqual(summaryOf('alpha').tags, ['Rust', 'Web']);
  });
});

describe('tag counts: published primary versions, most frequent first, then by name', () => {
  it('counts tags case-insensitively under their most used spelling, leaving out drafts and translations', () => {
    assert.deepEqual(countTags(catalog.primaries), [
      { name: 'Web', count: 4 },
      { name: 'Rust', count: 1 },
      { name: 'Travel', count: 1 },
      { name: 'Zig', count: 1 },
    ]);
  });
});
