// Writes dist/cli.js as one file holding every module src/cli.ts imports at start, Postbox's own and the
// packages', in place of tsc's one file per module, so that a start reads one file instead of some 480: Node's ESM loader
// resolves, reads and links each one, which cost 0.6 s of every start (docs/performance.md "Blog start-up by
// corpus size"). Packages loaded on first use (src/lazy-module.ts) stay in node_modules and load from there.
// tsc's other files in dist/ stay: the bundle does not import them, and benchmarks may.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

await build({
  entryPoints: [entry],
  outfile: cli,
  allowOverwrite: true,
  tsconfig: fileURLToPath(new URL('../tsconfig.build.json', import.meta.url)),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Bundled CommonJS packages call require(): in an ES module it comes from createRequire.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  legalComments: 'linked',
  // dist/cli.js.map: a failure's `at` (docs/forms-api.md) names a line of the bundle; run with
  // `node --enable-source-maps` to have it name the line of src/ instead.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
});

// It stays the `postbox` command (package.json "bin"), run directly as well as through node.
chmodSync(cli, 0o755);
