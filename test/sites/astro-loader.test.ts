// The Astro loader over a fake blog (docs/site-generators.md "Astro"): what it stores for each version, which
// requests it makes, and that a version no longer listed leaves the collection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoaderContext } from 'astro/loaders';
import type { Post, PostsPage } from '../../src/client/api-types.js';
import { postboxLoader } from '../../src/sites/astro.js';

const BLOG = 'https://blog.example.com';

function postOf(slug: string, lang = 'en', translations: Record<string, string> = {}): Post {
  return {
    slug, title: `Title of ${slug}`, excerpt: '', date: '2024-01-01', lang, tags: ['news'], author: null, fediverse_creator: null, cover: null,
    reading_time: 1, translations, digest: `${slug}-${lang}-1`, translation_digests: Object.fromEntries(Object.keys(translations).map((other) => [other, `${slug}-${other}-1`])),
    url: lang === 'en' ? `/api/blog/posts/${slug}` : `/api/blog/posts/${slug}?lang=${lang}`, body: `Body of ${slug}`, html: `<p>Body of ${slug} (${lang})</p>`,
  };
}

/** A blog of `posts` (and their French versions) that answers the listing and each post, and records the requests. */
function fakeBlog(posts: Post[], french: Post[] = []) {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/api/blog/posts') {
      const listed = url.searchParams.get('lang') === 'fr' ? french : posts;
      const page: PostsPage = { page: 1, page_size: 100, total: listed.length, has_next: false, has_prev: false, posts: listed.map(({ body: _body, html: _html, ...summary }) => summary) };
      return Response.json(page, { headers: { etag: `"${listed.length}"` } });
    }
    const found = [...posts, ...french].find((post) => `${url.pathname}${url.search}` === post.url);
    return found ? Response.json(found) : Response.json({ error: 'not_found' }, { status: 404 });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** A content layer context of maps, as Astro's stores behave for a loader. */
function fakeContext() {
  const entries = new Map<string, { id: string; data: Record<string, unknown>; body?: string; digest?: string | number; rendered?: { html: string } }>();
  const metaValues = new Map<string, string>();
  const context = {
    store: { get: (id: string) => entries.get(id), set: (entry: { id: string; data: Record<string, unknown> }) => (entries.set(entry.id, entry), true), keys: () => [...entries.keys()], delete: (id: string) => entries.delete(id) },
    meta: { get: (key: string) => metaValues.get(key), set: (key: string, value: string) => metaValues.set(key, value), has: (key: string) => metaValues.has(key), delete: (key: string) => metaValues.delete(key) },
    parseData: async ({ data }: { data: Record<string, unknown> }) => data,
    generateDigest: (text: string) => `digest:${text.length}:${text.slice(0, 80)}`,
    logger: { info: () => undefined },
  };
  return { context: context as unknown as LoaderContext, entries };
}

describe('postboxLoader', () => {
  it('stores each version under slug or slug/lang, with its fields, Markdown and HTML', async () => {
    const blog = fakeBlog([postOf('hello', 'en', { fr: '/api/blog/posts/hello?lang=fr' }), postOf('second')], [postOf('hello', 'fr')]);
    const { context, entries } = fakeContext();
    await postboxLoader({ url: `${BLOG}/`, fetch: blog.fetch }).load(context);
    assert.deepEqual([...entries.keys()].sort(), ['hello', 'hello/fr', 'second']);
    const french = entries.get('hello/fr')!;
    assert.equal(french.rendered?.html, '<p>Body of hello (fr)</p>');
    assert.equal(french.body, 'Body of hello');
    assert.equal(french.data.lang, 'fr');
    assert.ok(!('html' in french.data) && !('body' in french.data));
    assert.deepEqual(blog.requests, ['/api/blog/posts?limit=100&page=1', '/api/blog/posts/hello', '/api/blog/posts/hello?lang=fr', '/api/blog/posts/second']);
  });

  it('drops a version no longer listed, and fetches nothing it has', async () => {
    const { context, entries } = fakeContext();
    await postboxLoader({ url: BLOG, fetch: fakeBlog([postOf('hello'), postOf('second')]).fetch }).load(context);
    const after = fakeBlog([postOf('hello')]);
    await postboxLoader({ url: BLOG, fetch: after.fetch }).load(context);
    assert.deepEqual([...entries.keys()], ['hello']);
    assert.deepEqual(after.requests, ['/api/blog/posts?limit=100&page=1']);
  });

  it('with lang, lists that language and keeps each version under its slug', async () => {
    const blog = fakeBlog([postOf('hello')], [postOf('hello', 'fr')]);
    const { context, entries } = fakeContext();
    await postboxLoader({ url: BLOG, lang: 'fr', fetch: blog.fetch }).load(context);
    assert.deepEqual([...entries.keys()], ['hello']);
    assert.equal(entries.get('hello')!.data.lang, 'fr');
    assert.deepEqual(blog.requests, ['/api/blog/posts?limit=100&page=1&lang=fr', '/api/blog/posts/hello?lang=fr']);
  });
});
