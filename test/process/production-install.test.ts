// `npm ci --omit=dev` on a clean copy of the project gives a working `postbox`: `prepare` builds dist/ with
// what a production install has (esbuild, which bundles src/ into dist/cli.js, is a dependency; typescript and
// the @types packages, which are devDependencies, are not needed; `npm test` type-checks everything). The copy holds the
// files a clone would (tracked, and new ones not ignored), never node_modules or dist. npm installs from the
// registry, or from its cache when the packages are there (a CI run has just installed them all).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

/** The files a clone of the work tree would have: tracked ones still present, and untracked ones not ignored. */
function cloneFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file !== '' && existsSync(path.join(REPO_ROOT, file)));
}

function run(command: string, args: string[], cwd: string, timeoutMs = 60_000): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a production install of a clean copy', { timeout: 240_000 }, () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let project: string;
  before(async () => {
    temp = await createTempDir('production-install');
    project = path.join(temp.dir, 'postbox');
    for (const file of cloneFiles()) {
      await mkdir(path.dirname(path.join(project, file)), { recursive: true });
      await cp(path.join(REPO_ROOT, file), path.join(project, file));
    }
  });
  after(() => temp.remove());

  it('npm ci --omit=dev builds dist/, and postbox runs: --version and check of the example', () => {
    const install = run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], project, 180_000);
    assert.equal(install.code, 0, `npm ci --omit=dev failed:\n${install.stdout}\n${install.stderr}`);
    assert.ok(existsSync(path.join(project, 'node_modules/esbuild')), 'esbuild is a dependency');
    assert.ok(!existsSync(path.join(project, 'node_modules/typescript')), 'typescript, for type checks only, is a devDependency');
    assert.ok(!existsSync(path.join(project, 'node_modules/@types/node')), 'no devDependencies were installed');
    assert.ok(!existsSync(path.join(project, 'node_modules/tsx')), 'no devDependencies were installed');

    const version = run(process.execPath, ['dist/cli.js', '--version'], project);
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^postbox \d+\.\d+\.\d+/);

    const check = run(process.execPath, ['dist/cli.js', 'check', '--config', 'examples/config.toml'], project);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^examples\/config\.toml: OK\n/);
  });
});
