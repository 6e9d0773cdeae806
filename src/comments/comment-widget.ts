// The comment widget's script (src/comments/browser/, docs/comments.md "The widget"), found once per process as the
// admin's files are (src/admin/admin-assets.ts): from dist/cli.js, the file `npm run build` wrote beside it; from the
// sources through tsx (tests), built now in memory with the same options, so that no stale build is ever served.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyModule } from '../kit/lazy-module.js';
import { COMMENT_WIDGET_FILE, commentWidgetBuildOptions } from './comment-widget-build.mjs';

/** The folder beside dist/cli.js that the build writes the widget to. */
export const BUILT_WIDGET_FOLDER = 'comment-widget';

const esbuild = lazyModule<typeof import('esbuild')>('esbuild');

/** The widget built now from the sources. */
export function buildCommentWidget(): Buffer {
  const outfile = path.join(path.dirname(fileURLToPath(import.meta.url)), BUILT_WIDGET_FOLDER, COMMENT_WIDGET_FILE);
  const result = esbuild().buildSync({ ...commentWidgetBuildOptions(outfile), write: false });
  return Buffer.from(result.outputFiles[0]!.contents);
}

/** The widget as `npm run build` wrote it to `folder`; throws, saying what to do, when it is not there. */
export function readBuiltCommentWidget(folder: string): Buffer {
  const file = path.join(folder, COMMENT_WIDGET_FILE);
  if (!existsSync(file)) throw new Error(`${file} is missing: the comment widget is built by \`npm run build\``);
  return readFileSync(file);
}

let loaded: Buffer | undefined;

/** The widget of this process: built beside the running bundle, or built from the sources under tsx. */
export function commentWidget(): Buffer {
  loaded ??= import.meta.url.endsWith('.ts') ? buildCommentWidget() : readBuiltCommentWidget(fileURLToPath(new URL(`./${BUILT_WIDGET_FOLDER}/`, import.meta.url)));
  return loaded;
}
