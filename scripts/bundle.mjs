// The build: dist/postbox.cjs, one file holding every module src/cli.ts imports at start, Postbox's own and the
// packages', compiled from TypeScript by esbuild (`npm test` type-checks with tsc); and dist/cli.js, the command,
// which runs it with V8's code cache (src/launch.ts), written here by a first run. A start reads one file instead
// of some 480: Node's ESM loader resolves, reads and links each one, which cost 0.6 s of every start
// (docs/performance.md "Blog start-up by corpus size"). Packages loaded on first use (src/lazy-module.ts) stay in
// node_modules and load from there.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = (file) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));
const output = (file) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));
const common = {
  tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

// Nothing of an earlier build stays beside the new one, its code cache included.
rmSync(fileURLToPath(new URL('../dist', import.meta.url)), { recursive: true, force: true });

await build({
  ...common,
  entryPoints: [source('cli.ts')],
  outfile: output('postbox.cjs'),
  // CommonJS, as V8's code cache is made for a script (node:vm), not for an ES module, in Node.js 20.
  format: 'cjs',
  // The two modules that find package.json and node_modules from their own place ask import.meta.url. The
  // banner comes first in the file: it starts with the strict mode the modules had as ES modules.
  define: { 'import.meta.url': 'bundleUrl' },
  banner: { js: "'use strict';\nconst bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'linked',
  // dist/postbox.cjs.map: a failure's `at` (docs/forms-api.md) names a line of the bundle; run with
  // `node --enable-source-maps` to have it name the line of src/ instead.
  sourcemap: 'linked',
  sourcesContent: false,
});

await build({ ...common, entryPoints: [source('launch.ts')], outfile: output('cli.js'), format: 'esm' });

// It stays the `postbox` command (package.json "bin"), run directly as well as through node.
chmodSync(output('cli.js'), 0o755);

// The first run writes the code cache (src/launch.ts), so that the first start after a build has it too.
const first = spawnSync(process.execPath, [output('cli.js'), '--version'], { stdio: 'ignore' });
if (first.status !== 0) throw new Error(`dist/cli.js --version failed (${first.status ?? first.signal})`);
