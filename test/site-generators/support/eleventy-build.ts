// A build of examples/eleventy/ with the Eleventy in node_modules, in a process of its own whose folder is `workDir`:
// the pages go to `outDir`, the plugin's cache to `workDir/.cache/postbox`, which the next build of the test reads.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/postbox-process.js';

export const ELEVENTY_EXAMPLE = path.join(REPO_ROOT, 'examples/eleventy');

/** Eleventy as this repository's node_modules holds it: the build runs in a folder without any. */
const ELEVENTY = import.meta.resolve('@11ty/eleventy');

const BUILD = `
const [eleventy, input, output] = process.argv.slice(1);
const { default: Eleventy } = await import(eleventy);
await new Eleventy(input, output, { configPath: input + '/eleventy.config.js', quietMode: true }).write();
`;

export async function buildEleventyExample(options: { workDir: string; outDir: string; blogUrl: string; formsUrl: string }): Promise<void> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', BUILD, ELEVENTY, ELEVENTY_EXAMPLE, options.outDir], {
    cwd: options.workDir,
    env: { ...process.env, POSTBOX_BLOG_URL: options.blogUrl, POSTBOX_FORMS_URL: options.formsUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`eleventy build failed (${code}):\n${Buffer.concat(output).toString('utf8')}`);
}
