// The posts list's query (src/admin/post-pages/post-list-query.ts): newest first by date then file, 50 a page,
// search by title, slug or tag, filter by state, and the public page of each published version.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { PostListPage } from '../../src/admin/post-pages/post-list-page.js';
import {
  postListHref,
  publicPostLinksOf,
  readPostListQuery,
  selectPosts,
  viewUrlsOf,
  type ListedVersion,
} from '../../src/admin/post-pages/post-list-query.js';
import type { AdminSession } from '../../src/admin/sessions.js';

const version = (file: string, extra: Partial<ListedVersion> = {}): ListedVersion => ({
  file,
  slug: file.replace(/(\/index)?(\.[a-z]{2})?\.md$/, ''),
  language: 'en',
  title: file,
  date: '2026-01-01',
  state: 'published',
  ...extra,
});

const files = (versions: readonly ListedVersion[]) => versions.map((entry) => entry.file);

describe('reading the query', () => {
  it('takes q, a known state and a page; anything else is the default', () => {
    assert.deepEqual(readPostListQuery('q=+harbour+boats+&state=draft&page=3'), { q: 'harbour boats', state: 'draft', page: 3 });
    assert.deepEqual(readPostListQuery(''), { q: '', page: 1 });
    assert.deepEqual(readPostListQuery(undefined), { q: '', page: 1 });
    assert.deepEqual(readPostListQuery('state=deleted&page=0'), { q: '', page: 1 });
    assert.deepEqual(readPostListQuery('page=-2'), { q: '', page: 1 });
    assert.deepEqual(readPostListQuery('page=2.5'), { q: '', page: 1 });
    assert.deepEqual(readPostListQuery(new URLSearchParams({ state: 'broken' })), { q: '', state: 'broken', page: 1 });
  });

  it('writes the address of a page back with only what differs from the defaults', () => {
    assert.equal(postListHref({ q: '' }, 1), '/admin/posts');
    assert.equal(postListHref({ q: 'a b', state: 'draft' }, 2), '/admin/posts?q=a+b&state=draft&page=2');
  });
});

describe('order', () => {
  it('is newest first by date, then by file; undated versions last', () => {
    const versions = [
      version('b.md', { date: '2026-01-01' }),
      version('a.md', { date: '2026-01-01' }),
      version('new.md', { date: '2026-05-01T10:00:00+02:00' }),
      version('newer.md', { date: '2026-05-01T09:00:00Z' }),
      version('broken.md', { date: undefined, state: 'broken', reason: 'date is required' }),
      version('old.md', { date: '2020-12-31' }),
    ];
    assert.deepEqual(files(selectPosts(versions, readPostListQuery('')).versions), ['newer.md', 'new.md', 'a.md', 'b.md', 'old.md', 'broken.md']);
  });
});

describe('paging', () => {
  const many = Array.from({ length: 120 }, (_, index) => version(`p${String(index).padStart(3, '0')}.md`, { date: new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString() }));

  it('shows 50 a page, with newer and older pages', () => {
    const first = selectPosts(many, readPostListQuery(''));
    assert.equal(first.versions.length, 50);
    assert.equal(first.versions[0]?.file, 'p119.md');
    assert.deepEqual([first.page, first.pages, first.hasNewer, first.hasOlder, first.matching, first.total], [1, 3, false, true, 120, 120]);
    const second = selectPosts(many, readPostListQuery('page=2'));
    assert.equal(second.versions[0]?.file, 'p069.md');
    assert.deepEqual([second.hasNewer, second.hasOlder], [true, true]);
    const last = selectPosts(many, readPostListQuery('page=3'));
    assert.equal(last.versions.length, 20);
    assert.equal(last.versions.at(-1)?.file, 'p000.md');
    assert.deepEqual([last.hasNewer, last.hasOlder], [true, false]);
    const beyond = selectPosts(many, readPostListQuery('page=9'));
    assert.deepEqual([beyond.versions.length, beyond.hasNewer, beyond.hasOlder], [0, true, false]);
  });

  it('pages the matching versions only', () => {
    const drafts = many.map((entry, index) => (index % 2 === 0 ? { ...entry, state: 'draft' as const } : entry));
    const page = selectPosts(drafts, readPostListQuery('state=draft&page=2'));
    assert.deepEqual([page.matching, page.pages, page.versions.length, page.hasOlder], [60, 2, 10, false]);
    assert.ok(page.versions.every((entry) => entry.state === 'draft'));
  });
});

describe('search and filter', () => {
  const versions = [
    version('harbour.md', { title: 'Harbour notes', tags: ['sea', 'Boats'] }),
    version('harbour.fr.md', { slug: 'harbour', language: 'fr', title: 'Notes du port', tags: ['mer'], state: 'draft' }),
    version('mountains.md', { title: 'Über die Berge', tags: ['hiking'], state: 'scheduled', date: '2030-01-01' }),
    version('broken.md', { title: undefined, date: undefined, state: 'broken', reason: 'date is required' }),
  ];
  const found = (query: string) => files(selectPosts(versions, readPostListQuery(query)).versions).sort();

  it('finds by title, slug or tag, in any case; every word must be found', () => {
    assert.deepEqual(found('q=NOTES'), ['harbour.fr.md', 'harbour.md']);
    assert.deepEqual(found('q=harbour'), ['harbour.fr.md', 'harbour.md'], 'by slug');
    assert.deepEqual(found('q=boats'), ['harbour.md'], 'by tag');
    assert.deepEqual(found('q=%23boats'), ['harbour.md'], 'a tag written with #');
    assert.deepEqual(found('q=über'), ['mountains.md']);
    assert.deepEqual(found('q=broken'), ['broken.md'], 'a broken file by its slug');
    assert.deepEqual(found('q=harbour+mer'), ['harbour.fr.md']);
    assert.deepEqual(found('q=nothing-like-it'), []);
  });

  it('filters by state, alone or with words', () => {
    assert.deepEqual(found('state=published'), ['harbour.md']);
    assert.deepEqual(found('state=draft'), ['harbour.fr.md']);
    assert.deepEqual(found('state=scheduled'), ['mountains.md']);
    assert.deepEqual(found('state=broken'), ['broken.md']);
    assert.deepEqual(found('state=published&q=notes'), ['harbour.md']);
    assert.deepEqual(found('state=published&q=mer'), []);
  });
});

describe('the public page of a published version', () => {
  const links = publicPostLinksOf({ base_url: 'https://example.com', language: 'en' }, { post_url: '/blog/{slug}', translation_url: '/{lang}/blog/{slug}' });

  it('is post_url for the primary version and translation_url for the others; none for drafts', () => {
    const urls = viewUrlsOf(
      [
        version('trip/index.md', { slug: 'trip' }),
        version('trip/index.de.md', { slug: 'trip', language: 'de' }),
        version('trip/index.fr.md', { slug: 'trip', language: 'fr', state: 'draft' }),
        version('only-fr.fr.md', { slug: 'only-fr', language: 'fr' }),
        version('only-fr.pt-BR.md', { slug: 'only-fr', language: 'pt-BR' }),
        version('x y.md', { slug: 'x y', state: 'scheduled' }),
      ],
      links,
    );
    assert.deepEqual(Object.fromEntries(urls), {
      'trip/index.md': 'https://example.com/blog/trip',
      'trip/index.de.md': 'https://example.com/de/blog/trip',
      'only-fr.fr.md': 'https://example.com/blog/only-fr',
      'only-fr.pt-BR.md': 'https://example.com/pt-BR/blog/only-fr',
    });
  });

  it('takes a whole URL template as it is', () => {
    const elsewhere = publicPostLinksOf({ base_url: 'https://example.com', language: 'en' }, { post_url: 'https://posts.example.net/{slug}.html', translation_url: 'p/{lang}/{slug}' });
    const urls = viewUrlsOf([version('a b.md', { slug: 'a b' }), version('a b.de.md', { slug: 'a b', language: 'de' })], elsewhere);
    assert.equal(urls.get('a b.md'), 'https://posts.example.net/a%20b.html');
    assert.equal(urls.get('a b.de.md'), 'https://example.com/p/de/a%20b');
  });
});

describe('the page', () => {
  const session: AdminSession = { user: 'jane', role: 'owner', csrfToken: 'token', authAt: 0, timeZone: 'UTC' };
  const links = publicPostLinksOf({ base_url: 'https://example.com', language: 'en' }, { post_url: '/blog/{slug}', translation_url: '/{lang}/blog/{slug}' });

  it('has a GET search form, a text badge for broken posts with the reason, View links and the pager', () => {
    const versions = [
      ...Array.from({ length: 55 }, (_, index) => version(`p${String(index).padStart(2, '0')}.md`, { date: `2026-01-${String((index % 28) + 1).padStart(2, '0')}` })),
      version('broken.md', { title: undefined, date: undefined, state: 'broken', reason: 'date is required' }),
    ];
    const html = render(h(PostListPage, { session, versions, query: 'page=2', links }));
    assert.match(html, /<form method="get" action="\/admin\/posts"[^>]*role="search"/);
    assert.match(html, /<input type="search" id="posts-q" name="q" value(="")?\/>/);
    assert.match(html, /<span class="admin-badge admin-badge-broken">Broken<\/span><span class="admin-reason"> date is required<\/span>/);
    assert.match(html, /<a href="\/admin\/posts" rel="prev">Newer<\/a>/);
    assert.doesNotMatch(html, />Older</);
    const first = render(h(PostListPage, { session, versions, query: '', links }));
    assert.match(first, /<a href="\/admin\/posts\?page=2" rel="next">Older<\/a>/);
    assert.match(first, /<a href="https:\/\/example\.com\/blog\/p27">View<span class="admin-visually-hidden"> p27\.md \(en\)<\/span><\/a>/);
    assert.equal((first.match(/<tr /g) ?? []).length + (first.match(/<tr>/g) ?? []).length, 51, 'a heading row and 50 posts');
  });

  it('keeps the query in the form and the pager, and says when nothing matches', () => {
    const versions = Array.from({ length: 60 }, (_, index) => version(`p${index}.md`, { state: 'draft' }));
    const html = render(h(PostListPage, { session, versions, query: 'q=p&state=draft', links }));
    assert.match(html, /name="q" value="p"/);
    assert.match(html, /<option value="draft" selected>Draft<\/option>/);
    assert.match(html, /href="\/admin\/posts\?q=p&amp;state=draft&amp;page=2"/);
    assert.match(html, /60 of 60 posts match/);
    const none = render(h(PostListPage, { session, versions, query: 'state=broken', links }));
    assert.match(none, /No post matches\./);
  });
});
