// The types of admin-asset-build.mjs.
import type { BuildOptions, Metafile } from 'esbuild';

export declare const ADMIN_ASSET_ENTRIES: readonly string[];
export declare const ADMIN_ASSET_SOURCES: string;
export declare function adminAssetBuildOptions(outdir: string, sources?: string): BuildOptions & { outdir: string; metafile: true };
export declare function manifestOf(metafile: Metafile): Record<string, string>;
