// /a.js of this process, found as the comment widget is (src/comments/comment-widget.ts): from dist/cli.js, the file
// `npm run build` wrote beside it; from the sources through tsx (tests), built now in memory with the same options.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyModule } from '../kit/lazy-module.js';
import { BEACON_FILE, BEACON_FOLDER, beaconBuildOptions } from './beacon-build.mjs';

const esbuild = lazyModule<typeof import('esbuild')>('esbuild');

let loaded: Buffer | undefined;

/** The script: built beside the running bundle, or built from the sources under tsx. */
export function beaconScript(): Buffer {
  loaded ??= import.meta.url.endsWith('.ts') ? buildBeacon() : readBuilt(fileURLToPath(new URL(`./${BEACON_FOLDER}/${BEACON_FILE}`, import.meta.url)));
  return loaded;
}

function buildBeacon(): Buffer {
  const outfile = path.join(path.dirname(fileURLToPath(import.meta.url)), BEACON_FOLDER, BEACON_FILE);
  const result = esbuild().buildSync({ ...beaconBuildOptions(outfile), write: false });
  return Buffer.from(result.outputFiles[0]!.contents);
}

function readBuilt(file: string): Buffer {
  if (!existsSync(file)) throw new Error(`${file} is missing: /a.js is built by \`npm run build\``);
  return readFileSync(file);
}
