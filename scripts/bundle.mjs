// The build: dist/cli.js, one file holding every module src/main.ts imports at start, Postbox's own and the
// packages', compiled from TypeScript by esbuild (`npm test` type-checks with tsc). A start reads one file instead
// of some 480: Node's ESM loader resolves, reads and links each one, which cost 0.6 s of every start
// (docs/performance.md "Blog start-up by corpus size"). Packages loaded on first use (src/kit/lazy-module.ts) stay in
// node_modules and load from there. The admin's page scripts and stylesheet are built beside it, in
// dist/admin-assets/, each file named by a hash of its content, with manifest.json naming each entry's file
// (docs/architecture.md "Browser code"); the server reads them at start. So is the comment widget, in
// dist/comment-widget/comments.js.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminAssetBuildOptions, manifestOf } from '../src/admin/admin-asset-build.mjs';
import { COMMENT_WIDGET_FILE, commentWidgetBuildOptions } from '../src/comments/comment-widget-build.mjs';
import { BEACON_FILE, BEACON_FOLDER, beaconBuildOptions } from '../src/analytics/beacon-build.mjs';

// Node's own modules are taken with require(), not imported: importing one makes its ES module facade, which reads
// every export; node:http's include WebSocket and fetch's classes, and reading them loads undici (40 ms of every
// start, for a service that never calls fetch at start).
const builtin = new RegExp(`^(node:)?(${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`);
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: builtin }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'node-builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const require = createRequire(import.meta.url);
const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** The modules a site imports, by their path under src/ and dist/ (package.json "exports"). */
const PACKAGE_ENTRIES = ['client/client', 'sites/astro', 'sites/eleventy'];
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

// Nothing of an earlier build stays beside the new one.
rmSync(fileURLToPath(new URL('../dist', import.meta.url)), { recursive: true, force: true });

await build({
  entryPoints: [entry],
  outfile: cli,
  tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  // Bundled CommonJS packages call require(): in an ES module it comes from createRequire.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  legalComments: 'linked',
  // dist/cli.js.map: a failure's `at` (docs/forms-api.md) names a line of the bundle; run with
  // `node --enable-source-maps` to have it name the line of src/ instead.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [builtinsByRequire],
});

const assets = fileURLToPath(new URL('../dist/admin-assets', import.meta.url));
const { metafile } = await build({ ...adminAssetBuildOptions(assets), logLevel: 'warning' });
writeFileSync(path.join(assets, 'manifest.json'), `${JSON.stringify(manifestOf(metafile), null, 2)}\n`);

// The comment widget (docs/comments.md "The widget"), one ES module in dist/comment-widget/.
await build({ ...commentWidgetBuildOptions(fileURLToPath(new URL(`../dist/comment-widget/${COMMENT_WIDGET_FILE}`, import.meta.url))), logLevel: 'warning' });

// /a.js of the analytics (docs/analytics.md "The script"), in dist/analytics/.
await build({ ...beaconBuildOptions(fileURLToPath(new URL(`../dist/${BEACON_FOLDER}/${BEACON_FILE}`, import.meta.url))), logLevel: 'warning' });

// It stays the `postbox` command (package.json "bin"), run directly as well as through node.
chmodSync(cli, 0o755);

// The entry points a site imports (package.json "exports", docs/site-generators.md), each one ES module in dist/ that
// imports no package. With the development tools (not in a production install), the client's types are made again
// from the documents the server just built serves, and tsc writes the entries' declarations beside them.
await build({
  entryPoints: PACKAGE_ENTRIES.map((entry) => ({ in: fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url)), out: entry })),
  outdir: fileURLToPath(new URL('../dist', import.meta.url)),
  bundle: true,
  platform: 'node',
  packages: 'external',
  target: 'es2022',
  format: 'esm',
  logLevel: 'warning',
});
if (hasDevelopmentTools()) {
  const { writeClientTypes } = await import('./client-types.mjs');
  await writeClientTypes(cli);
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', fileURLToPath(new URL('../tsconfig.packages.json', import.meta.url))], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error('tsc -p tsconfig.packages.json failed');
}

function hasDevelopmentTools() {
  try {
    require.resolve('typescript/bin/tsc');
    require.resolve('openapi-typescript');
    return true;
  } catch {
    return false;
  }
}
