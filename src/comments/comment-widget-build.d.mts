// The types of comment-widget-build.mjs.
import type { BuildOptions } from 'esbuild';

export declare const COMMENT_WIDGET_FILE: string;
export declare function commentWidgetBuildOptions(outfile: string): BuildOptions & { outfile: string };
