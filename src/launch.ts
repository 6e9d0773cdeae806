#!/usr/bin/env node
// dist/cli.js, the `postbox` command: runs the bundle of src/cli.ts (dist/postbox.cjs) with V8's code cache of
// it, kept beside it in dist/postbox.cjs.cache. Compiling the 2.4 MB bundle took some 0.1 s of every start; from
// the cache V8 reads it compiled. The build writes the cache (scripts/bundle.mjs runs `postbox --version`); a
// process that found none, or one V8 refused (another Node.js, other V8 flags), writes it as it exits. A cache
// that cannot be written (a read-only install) is simply not kept; a rebuild empties dist/. With
// --enable-source-maps the bundle is required as usual, so that Node maps stack traces through its source map.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const bundle = fileURLToPath(new URL('./postbox.cjs', import.meta.url));
const requireFromBundle = createRequire(bundle);

if (process.sourceMapsEnabled) requireFromBundle(bundle);
else runWithCodeCache(`${bundle}.cache`);

function runWithCodeCache(cacheFile: string): void {
  const source = readFileSync(bundle, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The bundle keeps src/cli.ts's `#!` line, which is only valid first in a file: a comment keeps its place.
  const code = Module.wrap(source.startsWith('#!') ? `//${source.slice(2)}` : source);
  const script = new vm.Script(code, { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => writeCodeCache(script, cacheFile));
  const module = { exports: {}, filename: bundle, id: bundle };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, requireFromBundle, module, bundle, path.dirname(bundle));
}

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;

/** Writes the cache whole or not at all: replicas started together may each write one. */
function writeCodeCache(script: vm.Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
  } catch {
    rmSync(temporary, { force: true });
  }
}
