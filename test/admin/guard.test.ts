// Every rule that stands before an admin page (docs/admin.md "Security"), tried the way an attacker would: no session,
// expired sessions, missing and wrong CSRF tokens, foreign Origin and Sec-Fetch-Site, and the headers of every
// answer, including redirects, refusals and errors.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { AdminRoute } from '../../src/admin/admin-pages.js';
import { adminAssetPath } from '../../src/admin/admin-assets.js';
import { htmlAnswer, redirectAnswer } from '../../src/admin/render.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { HOUR_MS } from '../support/clock.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';
import { Layout } from '../../src/admin/views/layout.js';
import { h } from 'preact';

/** A page that changes something on POST, counting the changes, and one that fails. */
function testPages(changes: string[]): AdminRoute[] {
  return [
    ...createPlaceholderPages(),
    {
      path: '/admin/things',
      methods: {
        GET: (_request, session) => htmlAnswer(200, Layout({ title: 'Things', session, children: h('h1', null, 'Things') })),
        POST: (request) => {
          changes.push(request.form?.fields.get('thing') ?? '');
          return redirectAnswer('/admin/things');
        },
      },
    },
    { path: '/admin/broken', methods: { GET: () => { throw new Error('secret detail'); } } },
  ];
}

const EXPECTED_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex',
};

function assertAdminHeaders(response: { headers: Record<string, unknown>; statusCode: number }, what: string, cacheControl = 'no-store'): void {
  for (const [name, value] of Object.entries({ ...EXPECTED_HEADERS, 'cache-control': cacheControl })) assert.equal(response.headers[name], value, `${what}: ${name}`);
  const csp = String(response.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/, what);
  assert.match(csp, /frame-ancestors 'none'/, what);
  assert.match(csp, /form-action 'self'/, what);
  assert.match(csp, /base-uri 'none'/, what);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, what);
}

describe('the admin guard', () => {
  let app: TestAdmin;
  let remove: () => Promise<void>;
  let changes: string[];
  beforeEach(async () => {
    const temp = await createTempDir('admin-guard');
    remove = temp.remove;
    changes = [];
    app = await startTestAdmin({ dataDir: temp.dir, pages: testPages(changes), sessionHours: 12 });
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  it('sends every page without a session to the sign-in page, with where it was going', async () => {
    for (const url of ['/admin', '/admin/posts', '/admin/things?x=1', '/admin/no-such-page']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 303, url);
      assert.equal(response.headers.location, `/admin/login?next=${encodeURIComponent(url)}`);
    }
    const post = await app.inject(formPost('/admin/things', { thing: 'a' }));
    assert.equal(post.statusCode, 303);
    assert.equal(post.headers.location, '/admin/login');
    const forged = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie: 'postbox_admin=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    assert.equal(forged.statusCode, 303);
    assert.deepEqual(changes, []);
  });

  it('shows the placeholder Posts page to a signed-in person', async () => {
    const { cookie } = await signIn(app);
    for (const url of ['/admin', '/admin/posts']) {
      const page = await app.inject({ method: 'GET', url, headers: { cookie } });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<h1>Posts<\/h1>/);
      assert.match(page.body, /<main id="main">/);
      assert.match(page.body, /<button type="submit">Sign out<\/button>/);
    }
    const head = await app.inject({ method: 'HEAD', url: '/admin/posts', headers: { cookie } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  it('ends a session after session_hours without a request', async () => {
    const { cookie } = await signIn(app);
    app.clock.advance(12 * HOUR_MS - 1);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode, 200);
    app.clock.advance(12 * HOUR_MS);
    const expired = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
    assert.equal(expired.statusCode, 303);
    assert.equal(expired.headers.location, '/admin/login?next=%2Fadmin%2Fposts');
  });

  it('ends a session 7 days after sign-in however busy it is', async () => {
    const { cookie } = await signIn(app);
    for (let hour = 1; hour < 7 * 24; hour += 1) {
      app.clock.advance(HOUR_MS);
      assert.equal((await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode, 200, `hour ${hour}`);
    }
    app.clock.advance(HOUR_MS);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode, 303);
  });

  it('refuses a POST with a missing or wrong CSRF token with 403, changing nothing', async () => {
    const { cookie, csrf } = await signIn(app);
    const other = await signIn(app, 'jane', { remoteAddress: '192.0.2.9' });
    const attempts: Record<string, string>[] = [{ thing: 'a' }, { thing: 'b', csrf_token: '' }, { thing: 'c', csrf_token: `${csrf.slice(0, -1)}x` }, { thing: 'd', csrf_token: other.csrf }];
    for (const fields of attempts) {
      const response = await app.inject(formPost('/admin/things', fields, { cookie }));
      assert.equal(response.statusCode, 403, JSON.stringify(fields));
      assertAdminHeaders(response, '403');
    }
    const logout = await app.inject(formPost('/admin/logout', {}, { cookie }));
    assert.equal(logout.statusCode, 403);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode, 200, 'still signed in');
    assert.deepEqual(changes, []);
    const accepted = await app.inject(formPost('/admin/things', { thing: 'e', csrf_token: csrf }, { cookie, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' }));
    assert.equal(accepted.statusCode, 303);
    assert.deepEqual(changes, ['e']);
  });

  it('refuses a POST whose Origin or Sec-Fetch-Site is another site, even with the right token', async () => {
    const { cookie, csrf } = await signIn(app);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:8080' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of foreign) {
      const response = await app.inject(formPost('/admin/things', { thing: 'x', csrf_token: csrf }, { cookie, ...headers }));
      assert.equal(response.statusCode, 403, JSON.stringify(headers));
      const out = await app.inject(formPost('/admin/logout', { csrf_token: csrf }, { cookie, ...headers }));
      assert.equal(out.statusCode, 403);
    }
    assert.deepEqual(changes, []);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } })).statusCode, 200);
  });

  it('answers a form too large with the limit and a way back to the page it came from, never to another site', async () => {
    const { cookie, csrf } = await signIn(app);
    const big = { csrf_token: csrf, thing: 'x'.repeat(3 * 1024 * 1024) };
    const fromEditor = await app.inject(formPost('/admin/things', big, { cookie, host: 'localhost', referer: 'http://localhost/admin/posts/edit?file=trip.md' }));
    assert.equal(fromEditor.statusCode, 413);
    assert.match(fromEditor.body, /at most 1\.0 MB \(1048576 bytes, \[admin\] max_upload_bytes\)/);
    assert.match(fromEditor.body, /<a href="\/admin\/posts\/edit\?file=trip\.md">Back to where you were<\/a>/);
    const fromElsewhere = await app.inject(formPost('/admin/things', big, { cookie, host: 'localhost', referer: 'https://evil.example/admin/posts' }));
    assert.equal(fromElsewhere.statusCode, 413);
    assert.match(fromElsewhere.body, /<a href="\/admin[^"]*">Back to where you were<\/a>/);
    assert.doesNotMatch(fromElsewhere.body, /evil\.example/);
  });

  it('puts the security headers on every answer: pages, sign-in, redirects, refusals, 404, 405, 413, 429, 500, the stylesheet and script', async () => {
    const { cookie, csrf } = await signIn(app);
    const answers = {
      login: await app.inject({ method: 'GET', url: '/admin/login' }),
      redirect: await app.inject({ method: 'GET', url: '/admin/posts' }),
      page: await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } }),
      refused: await app.inject(formPost('/admin/things', { csrf_token: 'no' }, { cookie })),
      notFound: await app.inject({ method: 'GET', url: '/admin/nothing', headers: { cookie } }),
      notAllowed: await app.inject({ method: 'DELETE', url: '/admin/posts', headers: { cookie } }),
      tooLarge: await app.inject(formPost('/admin/things', { csrf_token: csrf, thing: 'x'.repeat(3 * 1024 * 1024) }, { cookie })),
      failed: await app.inject({ method: 'GET', url: '/admin/broken', headers: { cookie } }),
      stylesheet: await app.inject({ method: 'GET', url: adminAssetPath('admin.css') }),
      script: await app.inject({ method: 'GET', url: adminAssetPath('campaign-progress.js') }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([name, response]) => [name, response.statusCode]));
    assert.deepEqual(statuses, { login: 200, redirect: 303, page: 200, refused: 403, notFound: 404, notAllowed: 405, tooLarge: 413, failed: 500, stylesheet: 200, script: 200 });
    // The versioned stylesheet and script alone are kept by browsers: their address changes with their content.
    for (const [name, response] of Object.entries(answers)) assertAdminHeaders(response, name, name === 'stylesheet' || name === 'script' ? 'public, max-age=31536000, immutable' : 'no-store');
    for (let attempt = 0; attempt < 6; attempt += 1) await app.inject(formPost('/admin/login', { name: 'x', password: 'y' }));
    assertAdminHeaders(await app.inject(formPost('/admin/login', { name: 'x', password: 'y' })), '429');
    assert.equal(answers.stylesheet.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(answers.script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.ok(!answers.failed.body.includes('secret detail'));
    assert.equal(app.logs.lines().find((line) => line.event === 'internal_error')?.path, '/admin/broken');
    assert.deepEqual(changes, []);
  });

  it('pages use no inline script or style', async () => {
    const { cookie } = await signIn(app);
    for (const url of ['/admin/login', '/admin/posts']) {
      const page = await app.inject({ method: 'GET', url, headers: { cookie } });
      assert.doesNotMatch(page.body, /<script|<style| style=| on[a-z]+=/i, url);
    }
  });
});

describe('admin sessions across restarts and user names', () => {
  it('a session survives a restart of the service', async () => {
    const temp = await createTempDir('admin-restart');
    const app = await startTestAdmin({ dataDir: temp.dir });
    try {
      const { cookie, csrf } = await signIn(app);
      await app.restart();
      const page = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes(csrf), 'the same CSRF token after the restart');
    } finally {
      await app.close();
      await temp.remove();
    }
  });

  it('renders a user name holding <script> escaped', async () => {
    const temp = await createTempDir('admin-escape');
    const name = '<script>alert("x")</script>';
    const app = await startTestAdmin({ dataDir: temp.dir, users: [name] });
    try {
      const { cookie } = await signIn(app, name);
      const page = await app.inject({ method: 'GET', url: '/admin/posts', headers: { cookie } });
      assert.equal(page.statusCode, 200);
      assert.ok(!page.body.includes('<script>'));
      assert.ok(page.body.includes('&lt;script>alert(&quot;x&quot;)&lt;/script>') || page.body.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), page.body);
      const failed = await app.inject(formPost('/admin/login', { name: '"><script>alert(1)</script>', password: 'wrong password!' }));
      assert.ok(!failed.body.includes('<script>'));
    } finally {
      await app.close();
      await temp.remove();
    }
  });
});
