// The admin's stylesheet and page scripts (src/admin/browser/), each at an address that carries a hash of its
// content, `/admin/assets/<name>.<hash>.<js|css>`, cached for a year (docs/architecture.md "Browser code"). Where
// they come from depends on how the server runs:
//
//   - from dist/cli.js: `npm run build` wrote them beside it, in dist/admin-assets/ with manifest.json, which names
//     each entry's file; they are read once, at the first need (createAdmin asks at start, so a missing build
//     stops the start with a message instead of failing a page later);
//   - from the sources through tsx (tests, `node --import tsx src/main.ts`): esbuild builds them in memory with the
//     same options (admin-asset-build.mjs), so no earlier build is needed and none can be stale.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyModule } from '../kit/lazy-module.js';
import { adminAssetBuildOptions, manifestOf } from './admin-asset-build.mjs';

/** Where the admin's files are served. */
export const ADMIN_ASSETS_PATH = '/admin/assets/';

/** The folder beside dist/cli.js that the build writes them to, and the name of its manifest. */
export const BUILT_ASSETS_FOLDER = 'admin-assets';
export const MANIFEST_FILE = 'manifest.json';

/** The names pages ask for. */
export type AdminAssetName = 'admin.css' | 'campaign-progress.js' | 'editor.js' | 'passkeys.js';

export interface AdminAsset {
  type: string;
  body: Buffer;
}

export interface AdminAssets {
  /** The versioned address of `name`, e.g. "/admin/assets/editor.5UGT3YBZ.js". */
  pathOf(name: AdminAssetName): string;
  /** Each file by its versioned address. */
  byPath: ReadonlyMap<string, AdminAsset>;
}

const TYPES: Readonly<Record<string, string>> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

const esbuild = lazyModule<typeof import('esbuild')>('esbuild');

function assetsOf(manifest: Readonly<Record<string, string>>, read: (file: string) => Buffer): AdminAssets {
  const byPath = new Map<string, AdminAsset>();
  const paths = new Map<string, string>();
  for (const [name, file] of Object.entries(manifest)) {
    const address = `${ADMIN_ASSETS_PATH}${file}`;
    paths.set(name, address);
    byPath.set(address, { type: TYPES[path.extname(file)] ?? 'application/octet-stream', body: read(file) });
  }
  return {
    pathOf(name) {
      const address = paths.get(name);
      if (address === undefined) throw new Error(`the admin's ${name} was not built`);
      return address;
    },
    byPath,
  };
}

/** The files as `npm run build` wrote them to `folder`; throws, saying what to do, when they are not there. */
export function readBuiltAdminAssets(folder: string): AdminAssets {
  const manifestFile = path.join(folder, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: the admin's scripts and stylesheet are built by \`npm run build\``);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, string>;
  return assetsOf(manifest, (file) => readFileSync(path.join(folder, file)));
}

/** The files built now, in memory, from `sources` (src/admin/browser/ unless given). */
export function buildAdminAssets(sources?: string): AdminAssets {
  const outdir = path.join(path.dirname(fileURLToPath(import.meta.url)), BUILT_ASSETS_FOLDER);
  const result = esbuild().buildSync({ ...adminAssetBuildOptions(outdir, sources), write: false });
  const built = new Map(result.outputFiles.map((output) => [path.basename(output.path), Buffer.from(output.contents)]));
  return assetsOf(manifestOf(result.metafile), (file) => built.get(file) as Buffer);
}

let loaded: AdminAssets | undefined;

/**
 * The admin's files for this process, found once: built files beside the running bundle, or built from the sources
 * when this module runs as TypeScript. They are the same for every admin of the process, as the bundle is.
 */
export function adminAssets(): AdminAssets {
  loaded ??= import.meta.url.endsWith('.ts') ? buildAdminAssets() : readBuiltAdminAssets(fileURLToPath(new URL(`./${BUILT_ASSETS_FOLDER}/`, import.meta.url)));
  return loaded;
}

/** The versioned address of one of the admin's files, for a page's `<link>` or `<script>`. */
export function adminAssetPath(name: AdminAssetName): string {
  return adminAssets().pathOf(name);
}
