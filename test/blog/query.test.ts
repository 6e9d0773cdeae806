// GET /posts: query validation and the rules of docs/blog.md "/posts parameters" over the fixture catalog.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Catalog } from '../../src/blog/catalog/catalog.js';
import { listForLanguage, parsePostsQuery, selectPage, type PostsQuery } from '../../src/blog/catalog/query.js';
import { buildSearchIndex, type SearchIndex } from '../../src/blog/catalog/search-index.js';
import { loadCatalog } from './fixture.js';

let catalog: Catalog;
let index: SearchIndex;
before(async () => {
  catalog = (await loadCatalog()).catalog;
  index = buildSearchIndex(catalog.published.map((entry) => entry.post));
});

function run(raw: Record<string, unknown>) {
  const parsed = parsePostsQuery(raw);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  const { query } = parsed;
  const candidates = query.lang === undefined ? catalog.primaries : listForLanguage(catalog, query.lang);
  const page = selectPage(candidates, query, index);
  // Before the index is built, the posts are scanned: the very same page.
  assert.deepEqual(selectPage(candidates, query, null), page);
  return { ...page, slugs: page.entries.map((entry) => (entry.primary ? entry.post.slug : `${entry.post.slug}:${entry.post.lang}`)) };
}

describe('parsePostsQuery: page >= 1 and limit 1..100, else invalid_query', () => {
  const valid: Array<[Record<string, unknown>, Partial<PostsQuery>]> = [
    [{}, { page: 1, limit: 20, lang: undefined, tag: undefined, terms: [] }],
    [{ page: '3', limit: '1' }, { page: 3, limit: 1 }],
    [{ limit: '100' }, { limit: 100 }],
    [{ page: '007' }, { page: 7 }],
    [{ lang: 'FR', tag: ' Web ', q: 'Été  Paris' }, { lang: 'fr', tag: 'web', terms: ['été', 'paris'] }],
    [{ lang: '', tag: '', q: '' }, { lang: undefined, tag: undefined, terms: [] }],
    [{ unknown: 'x', _: '123' }, { page: 1 }],
  ];
  for (const [raw, expected] of valid) {
    it(`accepts ${JSON.stringify(raw)}`, () => {
      const parsed = parsePostsQuery(raw);
      assert.ok(parsed.ok);
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(parsed.query[key as keyof PostsQuery], value, key);
    });
  }
  const invalid: Array<[Record<string, unknown>, RegExp]> = [
    [{ page: '0' }, /^page /],
    [{ page: '-1' }, /^page /],
    [{ page: '1.5' }, /^page /],
    [{ page: 'abc' }, /^page /],
    [{ page: '' }, /^page /],
    [{ page: '+2' }, /^page /],
    [{ page: '1e3' }, /^page /],
    [{ page: '9'.repeat(30) }, /^page /],
    [{ limit: '0' }, /^limit /],
    [{ limit: '101' }, /^limit /],
    [{ limit: '-1' }, /^limit /],
    [{ limit: '1.5' }, /^limit /],
    [{ limit: '' }, /^limit /],
    [{ limit: 'abc' }, /^limit /],
    [{ page: ['1', '2'] }, /^page must be given at most once$/],
    [{ q: ['a', 'b'] }, /^q must be given at most once$/],
  ];
  for (const [raw, message] of invalid) {
    it(`refuses ${JSON.stringify(raw)}`, () => {
      const parsed = parsePostsQuery(raw);
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? '' : parsed.message, message);
    });
  }
});

describe('listing rules', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['primary versions, newest first, same date by slug', {}, ['gamma', 'alpha', 'beta', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'node.js', 'renamed']],
    ['lang=fr: French versions plus all_langs posts', { lang: 'fr' }, ['beta:fr', 'gamma', 'alpha:fr', 'delta:fr']],
    ['lang=en: a language with primaries', { lang: 'en' }, ['gamma', 'alpha', 'beta', 'zeta', 'eta', 'theta', 'node.js', 'renamed']],
    ['lang=es: the primary delta and all_langs gamma', { lang: 'es' }, ['gamma', 'delta']],
    ['lang=xx: only all_langs posts', { lang: 'xx' }, ['gamma']],
    ['lang=de: a draft translation is not listed', { lang: 'de' }, ['gamma']],
    ['tag, case-insensitive exact match', { tag: 'WEB' }, ['gamma', 'alpha', 'beta', 'eta']],
    ['tag is not a substring match', { tag: 'we' }, []],
    ['tag of a draft only', { tag: 'secret' }, []],
    ['tag within a language', { lang: 'fr', tag: 'rust' }, ['alpha:fr']],
    ['q over titles', { q: 'ÉTÉ' }, ['zeta']],
    ['q with full case folding', { q: 'hauptstrasse' }, ['zeta']],
    ['q: every term must occur', { q: 'alpha english' }, ['alpha']],
    ['q: terms in title and body', { q: 'gamma word' }, ['gamma']],
    ['q: no match', { q: 'alpha zzz' }, []],
    ['q does not search drafts', { q: 'published' }, []],
    ['q in a language', { lang: 'fr', q: 'française' }, ['alpha:fr']],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => assert.deepEqual(run(raw).slugs, expected));
  }
});

describe('pagination edges', () => {
  it('limit=1 walks the list one post at a time', () => {
    const first = run({ limit: '1' });
    assert.deepEqual([first.slugs, first.total, first.has_prev, first.has_next, first.page_size], [['gamma'], 10, false, true, 1]);
    const second = run({ limit: '1', page: '2' });
    assert.deepEqual([second.slugs, second.has_prev, second.has_next], [['alpha'], true, true]);
    const last = run({ limit: '1', page: '10' });
    assert.deepEqual([last.slugs, last.has_prev, last.has_next], [['renamed'], true, false]);
  });
  it('limit=100 returns everything on one page', () => {
    const page = run({ limit: '100' });
    assert.deepEqual([page.slugs.length, page.total, page.has_next, page.has_prev, page.page_size], [10, 10, false, false, 100]);
  });
  it('a page past the end is empty, with the total and has_prev', () => {
    const page = run({ page: '3', limit: '5' });
    assert.deepEqual([page.slugs, page.total, page.has_next, page.has_prev, page.page], [[], 10, false, true, 3]);
  });
  it('the last partial page', () => {
    const page = run({ page: '2', limit: '6' });
    assert.deepEqual([page.slugs, page.has_next, page.has_prev], [['eta', 'theta', 'node.js', 'renamed'], false, true]);
  });
});
