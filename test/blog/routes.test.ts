// The HTTP behaviour of the blog (docs/blog.md "What the API answers") through app.inject over the fixtures.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listed, SITE, startBlog, type RunningBlog } from './fixture.js';

let blog: RunningBlog;
before(async () => {
  blog = await startBlog();
});
after(async () => {
  await blog.close();
});

const GET_PATHS = ['/api/blog/site', '/api/blog/posts', '/api/blog/posts/alpha', '/api/blog/tags', '/api/blog/feed.xml', '/api/blog/feed.json', '/api/blog/sitemap.xml'];

describe('endpoints', () => {
  it('GET /site answers the [site] section', async () => {
    const response = await blog.request('/api/blog/site');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(response.json, SITE);
  });

  it('GET /site answers fediverse_creator null when [site] sets none', async () => {
    const bare = await startBlog(undefined, { overrides: { site: { fediverse_creator: undefined } } });
    try {
      const response = await bare.request('/api/blog/site');
      assert.equal(response.status, 200);
      assert.equal(response.json.fediverse_creator, null);
    } finally {
      await bare.close();
    }
  });

  it('GET /posts answers the list envelope with summaries', async () => {
    const { status, json } = await blog.request('/api/blog/posts?limit=2');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(json), ['page', 'page_size', 'total', 'has_next', 'has_prev', 'posts']);
    assert.deepEqual([json.page, json.page_size, json.total, json.has_next, json.has_prev], [1, 2, 10, true, false]);
    assert.deepEqual(listed(json.posts), ['gamma', 'alpha']);
    assert.deepEqual(Object.keys(json.posts[1]), ['slug', 'title', 'excerpt', 'date', 'lang', 'tags', 'author', 'fediverse_creator', 'cover', 'reading_time', 'translations', 'digest', 'translation_digests', 'url']);
  });

  it('GET /posts with lang, tag and q', async () => {
    assert.deepEqual(listed((await blog.request('/api/blog/posts?lang=fr')).json.posts), ['beta:fr', 'gamma', 'alpha:fr', 'delta:fr']);
    assert.deepEqual(listed((await blog.request('/api/blog/posts?tag=web&limit=3')).json.posts), ['gamma', 'alpha', 'beta']);
    assert.deepEqual(listed((await blog.request(`/api/blog/posts?q=${encodeURIComponent('ÉTÉ')}`)).json.posts), ['zeta']);
  });

  it('GET /posts/{slug} answers the detail: summary plus body and html', async () => {
    const { status, json } = await blog.request('/api/blog/posts/beta');
    assert.equal(status, 200);
    assert.equal(json.title, 'Beta');
    assert.match(json.body, /^Beta lives in a folder\. This is the part \*before\* the marker,\nwith a \[link\]/);
    assert.match(json.html, /^<p>Beta lives in a folder\. This is the part <em>before<\/em> the marker,\nwith a <a href="https:\/\/example\.org">link<\/a>\.<\/p>/);
    assert.deepEqual(Object.keys(json).slice(-2), ['body', 'html']);
    const french = await blog.request('/api/blog/posts/beta?lang=fr');
    assert.deepEqual([french.json.title, french.json.lang, french.json.url], ['Bêta', 'fr', '/api/blog/posts/beta?lang=fr']);
  });

  it('a draft answers 404 {"error":"draft"}; unknown slugs and languages 404 {"error":"not_found"}', async () => {
    const cases: Array<[string, string]> = [
      ['/api/blog/posts/draft-only', 'draft'],
      ['/api/blog/posts/alpha?lang=de', 'draft'],
      ['/api/blog/posts/alpha?lang=it', 'not_found'],
      ['/api/blog/posts/nope', 'not_found'],
      ['/api/blog/posts/custom-slug', 'not_found'],
    ];
    for (const [url, error] of cases) {
      const response = await blog.request(url);
      assert.equal(response.status, 404, url);
      assert.deepEqual(response.json, { error }, url);
    }
  });

  it('slugs cannot escape through path tricks: only known slugs are served', async () => {
    for (const url of ['/api/blog/posts/..%2F..%2Fsite', '/api/blog/posts/..%2Falpha', '/api/blog/posts/%2e%2e', '/api/blog/posts/alpha%2F', '/api/blog/posts/beta/index', '/api/blog/posts/', '/api/blog/posts/%00']) {
      const response = await blog.request(url);
      assert.equal(response.status, 404, url);
      assert.deepEqual(response.json, { error: 'not_found' }, url);
    }
    assert.equal((await blog.request('/api/blog/posts/node.js')).status, 200);
  });

  it('GET /tags', async () => {
    const { json } = await blog.request('/api/blog/tags');
    assert.deepEqual(json, { tags: [{ name: 'Web', count: 4 }, { name: 'Rust', count: 1 }, { name: 'Travel', count: 1 }, { name: 'Zig', count: 1 }] });
  });

  it('GET /health counts published versions', async () => {
    const response = await blog.request('/health');
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, { status: 'ok', posts: 14 });
  });
});

describe('invalid queries', () => {
  const cases = ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=', 'limit=0', 'limit=101', 'limit=', 'limit=1.5', 'page=1&page=2'];
  for (const query of cases) {
    it(`/posts?${query} -> 400 invalid_query`, async () => {
      const response = await blog.request(`/api/blog/posts?${query}`);
      assert.equal(response.status, 400);
      assert.equal(response.json.error, 'invalid_query');
      assert.match(response.json.message, /^(page|limit) /);
      assert.equal(response.headers['access-control-allow-origin'], '*');
    });
  }
  it('a repeated lang on a post is invalid_query too', async () => {
    const response = await blog.request('/api/blog/posts/alpha?lang=fr&lang=en');
    assert.deepEqual([response.status, response.json.error], [400, 'invalid_query']);
  });
});

describe('HTTP semantics', () => {
  it('every answer carries Access-Control-Allow-Origin: *, errors included', async () => {
    const requests: Array<[string, string]> = [
      ...GET_PATHS.map((url): [string, string] => ['GET', url]),
      ['GET', '/api/blog/posts/nope'],
      ['GET', '/api/blog/posts/draft-only'],
      ['GET', '/api/blog/posts?page=0'],
      ['GET', '/api/blog/unknown'],
      ['GET', '/'],
      ['GET', '/elsewhere'],
      ['POST', '/api/blog/posts'],
      ['DELETE', '/api/blog/site'],
      ['OPTIONS', '/api/blog/posts'],
      ['HEAD', '/api/blog/site'],
      ['GET', '/health'],
    ];
    for (const [method, url] of requests) {
      const response = await blog.request(url, { method });
      assert.equal(response.headers['access-control-allow-origin'], '*', `${method} ${url}`);
    }
  });

  it('JSON and feeds carry an ETag and Cache-Control from cache_max_age; If-None-Match gives 304 with CORS', async () => {
    for (const url of [...GET_PATHS, '/api/blog/posts?tag=web', '/api/blog/posts/alpha?lang=fr']) {
      const first = await blog.request(url);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[^"]+"$/, url);
      assert.equal(first.headers['cache-control'], 'public, max-age=120', url);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await blog.request(url, { headers: { 'if-none-match': header } });
        assert.equal(again.status, 304, `${url} with ${header}`);
        assert.equal(again.body, '');
        assert.equal(again.headers.etag, etag);
        assert.equal(again.headers['access-control-allow-origin'], '*');
        assert.equal(again.headers['cache-control'], 'public, max-age=120');
      }
      const changed = await blog.request(url, { headers: { 'if-none-match': '"stale"' } });
      assert.equal(changed.status, 200, url);
      assert.equal(changed.body, first.body);
    }
  });

  it('equal queries share one answer: the ETag does not depend on how the query was written', async () => {
    const plain = await blog.request('/api/blog/posts');
    const explicit = await blog.request('/api/blog/posts?page=1&limit=20&utm_source=x');
    assert.equal(explicit.headers.etag, plain.headers.etag);
    const other = await blog.request('/api/blog/posts?limit=19');
    assert.notEqual(other.headers.etag, plain.headers.etag);
  });

  it('HEAD answers like GET without a body', async () => {
    for (const url of [...GET_PATHS, '/health', '/api/blog/posts/nope']) {
      const get = await blog.request(url);
      const head = await blog.request(url, { method: 'HEAD' });
      assert.equal(head.status, get.status, url);
      assert.equal(head.body, '', url);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) assert.equal(head.headers[name], get.headers[name], `${url} ${name}`);
    }
  });

  it('OPTIONS on any /api/blog path is a 204 preflight', async () => {
    for (const url of ['/api/blog/posts', '/api/blog/posts/alpha', '/api/blog/anything/at/all']) {
      const response = await blog.request(url, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } });
      assert.equal(response.status, 204, url);
      assert.equal(response.body, '');
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
      assert.match(String(response.headers['access-control-allow-headers']), /If-None-Match/);
    }
  });

  it('other methods answer 405 with Allow, whatever the body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const url of ['/api/blog/posts', '/api/blog/site', '/api/blog/posts/alpha', '/health']) {
        const response = await blog.app.inject({ method: method as 'POST', url, payload: '{not json', headers: { 'content-type': 'application/json' } });
        assert.equal(response.statusCode, 405, `${method} ${url}`);
        assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS');
        assert.deepEqual(JSON.parse(response.body), { error: 'method_not_allowed' });
      }
    }
  });

  it('unknown paths answer 404 {"error":"not_found"}, under /api/blog and elsewhere', async () => {
    for (const url of ['/api/blog', '/api/blog/', '/api/blog/nothing', '/api/blog/site/extra', '/api/blog/feed', '/', '/robots.txt', '/api/other']) {
      for (const method of ['GET', 'POST']) {
        const response = await blog.request(url, { method });
        assert.equal(response.status, 404, `${method} ${url}`);
        assert.deepEqual(response.json, { error: 'not_found' }, `${method} ${url}`);
      }
    }
  });

  it('writes the one request log line per request', async () => {
    await blog.request('/api/blog/posts?q=secret-term');
    const line = blog.logs.lines().findLast((entry) => entry.msg === 'request');
    assert.deepEqual(
      { method: line?.method, path: line?.path, status: line?.status, ip: line?.ip },
      { method: 'GET', path: '/api/blog/posts', status: 200, ip: '127.0.0.1' },
    );
  });
});

describe('on a real socket', () => {
  it('serves GET and HEAD with the same headers', async () => {
    const other = await startBlog();
    const server = await other.app.listen();
    try {
      const { address } = server;
      const get = await fetch(`${address}/api/blog/posts/alpha`);
      const body = await get.text();
      assert.equal(get.status, 200);
      assert.equal(get.headers.get('content-length'), String(Buffer.byteLength(body)));
      const head = await fetch(`${address}/api/blog/posts/alpha`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
      assert.equal(await head.text(), '');
      const notModified = await fetch(`${address}/api/blog/posts/alpha`, { headers: { 'if-none-match': String(get.headers.get('etag')) } });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers.get('access-control-allow-origin'), '*');
    } finally {
      await server.close(0);
      await other.close();
    }
  });
});
