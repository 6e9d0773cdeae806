// The types of beacon-build.mjs.
import type { BuildOptions } from 'esbuild';

export declare const BEACON_FOLDER: string;
export declare const BEACON_FILE: string;
export declare function beaconBuildOptions(outfile: string): BuildOptions & { outfile: string };
