// How the comment widget (src/comments/browser/) is built for the browser, in one place for both ways it runs
// (docs/comments.md "The widget"): `npm run build` (scripts/bundle.mjs) writes it beside dist/cli.js, and the server
// run from the sources (tests, through tsx) builds it in memory (comment-widget.ts). Plain JavaScript so that the
// build script, which Node runs without TypeScript, reads the same options.
import { fileURLToPath } from 'node:url';

/** The file the build writes, in the folder beside dist/cli.js. */
export const COMMENT_WIDGET_FILE = 'comments.js';

/**
 * esbuild's options: the widget bundled and minified into one ES module (it reads import.meta.url to find the API)
 * for the browsers that run modules and custom elements (ES2020).
 */
export function commentWidgetBuildOptions(outfile) {
  return {
    entryPoints: [fileURLToPath(new URL('./browser/comments.ts', import.meta.url))],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    tsconfig: fileURLToPath(new URL('../../tsconfig.browser.json', import.meta.url)),
    legalComments: 'none',
    logLevel: 'silent',
  };
}
