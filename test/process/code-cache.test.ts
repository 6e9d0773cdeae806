// dist/cli.js runs the bundle with V8's code cache kept beside it (src/launch.ts): a server writes it a few seconds
// in when there was none or V8 refused it, a start with a good one leaves it alone, and a broken one harms nothing.
// Each test works on its own copy of dist/, as other tests start the CLI from the real one meanwhile.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { REPO_ROOT, assertCliBuilt, runPostbox, startPostboxServe } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** src/launch.ts writes the cache after this long; a test waits past it to see that nothing was written. */
const WRITE_CACHE_AFTER_MS = 5000;

/** A copy of the built command in `dir`: package.json, node_modules (a link) and dist/'s two scripts. */
async function copyOfBuild(dir: string): Promise<{ cli: string; cache: string }> {
  await mkdir(path.join(dir, 'dist'));
  await copyFile(path.join(REPO_ROOT, 'package.json'), path.join(dir, 'package.json'));
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  for (const file of ['cli.js', 'postbox.cjs']) await copyFile(path.join(REPO_ROOT, 'dist', file), path.join(dir, 'dist', file));
  return { cli: path.join(dir, 'dist', 'cli.js'), cache: path.join(dir, 'dist', 'postbox.cjs.cache') };
}

async function serveFor(milliseconds: number, cli: string, configFile: string): Promise<void> {
  const serve = await startPostboxServe(configFile, ['forms'], { cliPath: cli });
  try {
    await new Promise((resolve) => setTimeout(resolve, milliseconds));
  } finally {
    await serve.stop();
  }
}

const fileOrNull = (file: string) => readFile(file).catch(() => null);

describe('the code cache beside the bundle', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let configFile: string;

  before(async () => {
    assertCliBuilt();
    temp = await createTempDir('code-cache');
    configFile = await writeConfigFile(temp.dir, {
      data_dir: path.join(temp.dir, 'data'),
      server: { listen: '127.0.0.1:0' },
      mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', transport: 'file' },
      forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
    });
  });
  after(() => temp.remove());

  it('is written by a server that has run a few seconds, and kept by the next start, which V8 accepts it for', async () => {
    const { cli, cache } = await copyOfBuild(await mkdirIn(temp.dir, 'fresh'));
    // A short command writes nothing: it has not run what a server's start runs.
    assert.equal((await runPostbox(['--version'], { cliPath: cli })).code, 0);
    assert.equal(await fileOrNull(cache), null);

    await serveFor(WRITE_CACHE_AFTER_MS + 1500, cli, configFile);
    const written = await stat(cache);
    assert.ok(written.size > 100_000, `a cache of ${written.size} bytes`);

    await serveFor(WRITE_CACHE_AFTER_MS + 1500, cli, configFile);
    const after = await stat(cache);
    assert.equal(after.mtimeMs, written.mtimeMs, 'a start whose cache V8 accepted wrote it again');
  });

  it('a broken cache changes nothing but itself: the command runs, and a server replaces it', async () => {
    const { cli, cache } = await copyOfBuild(await mkdirIn(temp.dir, 'broken'));
    const garbage = Buffer.alloc(4096, 7);
    await writeFile(cache, garbage);
    const version = await runPostbox(['--version'], { cliPath: cli });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^postbox \d+\.\d+\.\d+/);

    const serve = await startPostboxServe(configFile, ['forms'], { cliPath: cli });
    try {
      const replaced = await waitFor('the cache to be written again', async () => {
        const bytes = await fileOrNull(cache);
        return bytes && !bytes.equals(garbage) ? bytes : undefined;
      });
      assert.ok(replaced.length > 100_000);
    } finally {
      await serve.stop();
    }
  });

  it('runs the bundle in strict mode, as the ES modules it is made of were', async () => {
    const bundle = await readFile(path.join(REPO_ROOT, 'dist', 'postbox.cjs'), 'utf8');
    // The first statement after the `#!` line: only there is "use strict" a directive.
    assert.match(bundle, /^#![^\n]*\n'use strict';\n/);
  });
});

async function mkdirIn(parent: string, name: string): Promise<string> {
  const dir = path.join(parent, name);
  await mkdir(dir);
  return dir;
}
