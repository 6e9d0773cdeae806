// `astro build` of examples/astro/ with the Astro in node_modules, in a process of its own, into the test's folders:
// the pages to `outDir`, and Astro's cache (its data store and the loader's meta store) in `cacheDir`, which the
// next build of the same test reads.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/postbox-process.js';

export const ASTRO_EXAMPLE = path.join(REPO_ROOT, 'examples/astro');

const BUILD = `
import { build } from 'astro';
const [root, outDir, cacheDir] = process.argv.slice(1);
await build({ root, outDir, cacheDir, logLevel: 'warn' });
`;

export async function buildAstroExample(options: { outDir: string; cacheDir: string; blogUrl: string; formsUrl: string }): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', BUILD, ASTRO_EXAMPLE, options.outDir, options.cacheDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, POSTBOX_BLOG_URL: options.blogUrl, POSTBOX_FORMS_URL: options.formsUrl, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const text = Buffer.concat(output).toString('utf8');
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${text}`);
  return text;
}
