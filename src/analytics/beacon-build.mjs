// How /a.js (src/analytics/browser/beacon.ts) is built for the browser, in one place for both ways it runs
// (docs/analytics.md "The script"): `npm run build` (scripts/bundle.mjs) writes it beside dist/cli.js, and the
// server run from the sources (tests, through tsx) builds it in memory (beacon-script.ts). Plain JavaScript so that
// the build script, which Node runs without TypeScript, reads the same options.
import { fileURLToPath } from 'node:url';

/** The folder beside dist/cli.js and the file the build writes. */
export const BEACON_FOLDER = 'analytics';
export const BEACON_FILE = 'a.js';

/** esbuild's options: one classic script (it finds its origin through document.currentScript), minified, for ES2017 browsers. */
export function beaconBuildOptions(outfile) {
  return {
    entryPoints: [fileURLToPath(new URL('./browser/beacon.ts', import.meta.url))],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2017',
    tsconfig: fileURLToPath(new URL('../../tsconfig.browser.json', import.meta.url)),
    legalComments: 'none',
    logLevel: 'silent',
  };
}
