// dist/cli.js runs the bundle with V8's code cache kept beside it (src/launch.ts): the build writes it, a process
// that found none or one V8 refused writes it as it exits, a process with a good one leaves it alone, and a broken
// one harms nothing. Each test works on its own copy of dist/, as other tests run the CLI from the real one.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { REPO_ROOT, assertCliBuilt, runPostbox, startPostboxServe } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

/** A copy of the built command in a new folder of `parent`: package.json, node_modules (a link), dist/'s scripts. */
async function copyOfBuild(parent: string, name: string): Promise<{ cli: string; cache: string }> {
  const dir = path.join(parent, name);
  await mkdir(path.join(dir, 'dist'), { recursive: true });
  await copyFile(path.join(REPO_ROOT, 'package.json'), path.join(dir, 'package.json'));
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const file of ['cli.js', 'postbox.cjs']) await copyFile(path.join(REPO_ROOT, 'dist', file), path.join(dir, 'dist', file));
  return { cli: path.join(dir, 'dist', 'cli.js'), cache: path.join(dir, 'dist', 'postbox.cjs.cache') };
}

const fileOrNull = (file: string) => readFile(file).catch(() => null);

describe('the code cache beside the bundle', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;

  before(async () => {
    assertCliBuilt();
    temp = await createTempDir('code-cache');
  });
  after(() => temp.remove());

  it('is there after a build', async () => {
    assert.ok((await stat(path.join(REPO_ROOT, 'dist', 'postbox.cjs.cache'))).size > 100_000);
  });

  it('is written by a process that found none, and kept by the next, which V8 accepts it for', async () => {
    const { cli, cache } = await copyOfBuild(temp.dir, 'fresh');
    assert.equal(await fileOrNull(cache), null);
    assert.equal((await runPostbox(['--version'], { cliPath: cli })).code, 0);
    const written = await stat(cache);
    assert.ok(written.size > 100_000, `a cache of ${written.size} bytes`);

    assert.equal((await runPostbox(['--help'], { cliPath: cli })).code, 0);
    assert.equal((await stat(cache)).mtimeMs, written.mtimeMs, 'a process whose cache V8 accepted wrote it again');
  });

  it('a broken cache changes nothing but itself: the command runs, a server too, and it is replaced', async () => {
    const { cli, cache } = await copyOfBuild(temp.dir, 'broken');
    const garbage = Buffer.alloc(4096, 7);
    await writeFile(cache, garbage);
    const version = await runPostbox(['--version'], { cliPath: cli });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^postbox \d+\.\d+\.\d+/);
    const replaced = await readFile(cache);
    assert.ok(!replaced.equals(garbage) && replaced.length > 100_000);

    await writeFile(cache, garbage);
    const configFile = await writeConfigFile(temp.dir, {
      data_dir: path.join(temp.dir, 'data'),
      server: { listen: '127.0.0.1:0' },
      mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', transport: 'file' },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    });
    const serve = await startPostboxServe(configFile, ['forms'], { cliPath: cli });
    const health = await fetch(`${serve.addresses.forms}/health`);
    assert.equal(health.status, 200);
    assert.equal((await serve.stop()).code, 0);
    assert.ok(!(await readFile(cache)).equals(garbage), 'the server did not replace the broken cache');
  });

  it('runs the bundle in strict mode, as the ES modules it is made of were', async () => {
    const bundle = await readFile(path.join(REPO_ROOT, 'dist', 'postbox.cjs'), 'utf8');
    // The first statement after the `#!` line: only there is "use strict" a directive.
    assert.match(bundle, /^#![^\n]*\n'use strict';\n/);
  });
});
