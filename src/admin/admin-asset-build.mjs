// How the admin's page scripts and stylesheet (src/admin/browser/) are built for the browser, in one place for both
// ways it runs (docs/architecture.md "Browser code"): `npm run build` (scripts/bundle.mjs) writes the files beside
// dist/cli.js, and the server run from the sources (tests, through tsx) builds them in memory (admin-assets.ts).
// Plain JavaScript so that the build script, which Node runs without TypeScript, reads the same options.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The entry points, in src/admin/browser/: each becomes one file, its imports bundled in. */
export const ADMIN_ASSET_ENTRIES = ['admin.css', 'campaign-progress.ts', 'editor.ts', 'passkeys.ts'];

/** The sources of the entries. */
export const ADMIN_ASSET_SOURCES = fileURLToPath(new URL('./browser/', import.meta.url));

/**
 * esbuild's options: every entry bundled, minified and lowered to ES2017 (the browsers the admin supports), in a
 * classic script (an IIFE: no module loader needed), into `<name>.<hash>.<js|css>` in `outdir`, the hash of its
 * content. The metafile says which file came of which entry (manifestOf).
 */
export function adminAssetBuildOptions(outdir, sources = ADMIN_ASSET_SOURCES) {
  return {
    entryPoints: ADMIN_ASSET_ENTRIES.map((entry) => path.join(sources, entry)),
    outdir,
    entryNames: '[name].[hash]',
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2017',
    tsconfig: fileURLToPath(new URL('../../tsconfig.browser.json', import.meta.url)),
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  };
}

/** Each entry's name as pages ask for it ("editor.js", "admin.css") with the name of its built file in outdir. */
export function manifestOf(metafile) {
  const manifest = {};
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint === undefined) continue;
    const file = path.basename(output);
    const extension = path.extname(file);
    manifest[`${path.basename(entryPoint, path.extname(entryPoint))}${extension}`] = file;
  }
  return manifest;
}
