// The admin's scripts and stylesheet at versioned addresses (docs/architecture.md "Browser code"): pages name the
// address of the built file, which answers for a year without revalidation, with an ETag per encoding and a 304;
// another hash is 404; the address changes with the content; a missing build says what to do.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ADMIN_ASSET_SOURCES } from '../../src/admin/admin-asset-build.mjs';
import { adminAssetPath, buildAdminAssets, MANIFEST_FILE, readBuiltAdminAssets } from '../../src/admin/admin-assets.js';
import { createTempDir } from '../support/temp-dir.js';
import { signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

let app: TestAdmin;
let remove: () => Promise<void>;

before(async () => {
  const temp = await createTempDir('admin-assets');
  remove = temp.remove;
  app = await startTestAdmin({ dataDir: temp.dir });
});

after(async () => {
  await app.close();
  await remove();
});

describe('the admin\'s versioned scripts and stylesheet', () => {
  it('pages link the stylesheet and scripts by their versioned address, and the CSP still runs only the admin\'s own files', async () => {
    const login = await app.inject({ method: 'GET', url: '/admin/login' });
    assert.match(adminAssetPath('admin.css'), /^\/admin\/assets\/admin\.[A-Z0-9]{8}\.css$/);
    assert.match(adminAssetPath('passkeys.js'), /^\/admin\/assets\/passkeys\.[A-Z0-9]{8}\.js$/);
    assert.ok(login.body.includes(`<link rel="stylesheet" href="${adminAssetPath('admin.css')}"/>`), login.body.slice(0, 600));
    assert.ok(login.body.includes(`<script src="${adminAssetPath('passkeys.js')}" defer></script>`));
    assert.doesNotMatch(login.body, /<script(?![^>]*\ssrc=)/, 'no inline script');
    assert.equal(login.headers['cache-control'], 'no-store', 'pages are never kept');
    assert.match(String(login.headers['content-security-policy']), /script-src 'self'; style-src 'self'/);
  });

  it('answers each immutable, with an ETag per encoding, and 304 to the tag it gave', async () => {
    for (const name of ['admin.css', 'editor.js', 'passkeys.js', 'campaign-progress.js'] as const) {
      const url = adminAssetPath(name);
      const plain = await app.inject({ method: 'GET', url });
      assert.equal(plain.statusCode, 200, url);
      assert.equal(plain.headers['cache-control'], IMMUTABLE, url);
      assert.equal(plain.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(plain.headers['cross-origin-resource-policy'], 'same-origin', url);
      assert.match(String(plain.headers['content-type']), name.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      if (name.endsWith('.js')) assert.doesNotThrow(() => new Function(plain.body), `${url} parses`);
      const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      assert.deepEqual([gzip.headers['content-encoding'], br.headers['content-encoding']], ['gzip', 'br'], url);
      assert.deepEqual(gunzipSync(gzip.rawPayload), plain.rawPayload);
      assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
      const tags = [plain, gzip, br].map((answer) => String(answer.headers.etag));
      assert.equal(new Set(tags).size, 3, `${url}: ${tags.join(' ')}`);
      for (const answer of [plain, gzip, br]) assert.equal(answer.headers.vary, 'Accept-Encoding');
      const again = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.headers.etag, br.headers.etag);
      assert.equal(again.headers['cache-control'], IMMUTABLE);
      assert.equal(again.body, '');
      const head = await app.inject({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-length'], plain.headers['content-length']);
    }
  });

  it('answers another hash, an old unversioned address and other methods as no file', async () => {
    const url = adminAssetPath('editor.js');
    for (const wrong of [url.replace(/\.[A-Z0-9]{8}\.js$/, '.AAAAAAAA.js'), '/admin/assets/editor.js', '/admin/assets/admin.css', '/admin/assets/']) {
      const answer = await app.inject({ method: 'GET', url: wrong });
      assert.equal(answer.statusCode, 404, wrong);
      assert.equal(answer.headers['cache-control'], 'no-store', wrong);
    }
    const { cookie } = await signIn(app);
    assert.equal((await app.inject({ method: 'POST', url, headers: { cookie } })).statusCode, 405);
  });

  it('changes a file\'s address when its content changes, and only that file\'s', async () => {
    const { dir, remove: removeCopy } = await createTempDir('admin-asset-sources');
    try {
      await cp(ADMIN_ASSET_SOURCES, dir, { recursive: true });
      const before = buildAdminAssets(dir);
      assert.equal(before.pathOf('admin.css'), adminAssetPath('admin.css'), 'the same sources, the same address');
      await writeFile(path.join(dir, 'admin.css'), `${await readFile(path.join(dir, 'admin.css'), 'utf8')}\n.admin-extra { color: red; }\n`);
      const changed = buildAdminAssets(dir);
      assert.notEqual(changed.pathOf('admin.css'), before.pathOf('admin.css'));
      assert.equal(changed.pathOf('editor.js'), before.pathOf('editor.js'));
      assert.match(changed.byPath.get(changed.pathOf('admin.css'))!.body.toString(), /admin-extra/);
    } finally {
      await removeCopy();
    }
  });

  it('read from a build: the files its manifest names; without one, a message that says to build', async () => {
    const { dir, remove: removeBuild } = await createTempDir('admin-asset-build');
    try {
      assert.throws(() => readBuiltAdminAssets(path.join(dir, 'admin-assets')), /manifest\.json is missing: .*npm run build/);
      const built = buildAdminAssets();
      const folder = path.join(dir, 'admin-assets');
      await mkdir(folder);
      const manifest: Record<string, string> = {};
      for (const name of ['admin.css', 'campaign-progress.js', 'editor.js', 'passkeys.js'] as const) {
        const file = path.basename(built.pathOf(name));
        manifest[name] = file;
        await writeFile(path.join(folder, file), built.byPath.get(built.pathOf(name))!.body);
      }
      await writeFile(path.join(folder, MANIFEST_FILE), JSON.stringify(manifest));
      const read = readBuiltAdminAssets(folder);
      assert.equal(read.pathOf('editor.js'), built.pathOf('editor.js'));
      assert.deepEqual(read.byPath.get(read.pathOf('editor.js'))!.body, built.byPath.get(built.pathOf('editor.js'))!.body);
      assert.equal(read.byPath.get(read.pathOf('admin.css'))!.type, 'text/css; charset=utf-8');
    } finally {
      await removeBuild();
    }
  });
});
