// A site's build against Postbox: `astro build` of examples/astro/ (the `postbox/astro` loader) over a blog of
// 5,000 posts, cold (an empty Astro cache) and again with nothing changed, each with its seconds and the requests
// Postbox's log counts for it (docs/site-generators.md "How a build stays small"). Information, no target.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { generateCorpus } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { REPO_ROOT, startPostbox, type RunningPostbox } from './lib/processes.js';

const SECTION = 'astro 5k';
const POSTS = 5000;
const EXAMPLE = path.join(REPO_ROOT, 'examples/astro');

// Astro's own build API, in a process of its own, with its cache where the bench says.
const BUILD = `
import { build } from 'astro';
const [root, outDir, cacheDir] = process.argv.slice(1);
await build({ root, outDir, cacheDir, logLevel: 'warn' });
`;

export async function benchAstro5k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Site build: astro build of the example site over 5,000 posts, cold and with no change');
  const dir = path.join(context.tmpRoot, 'astro-5k');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: POSTS, seed: 47 });
  const configFile = writeBlogConfig(dir, corpus.dir);
  let postbox: RunningPostbox | undefined;
  try {
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['blog'], placement: context.cores.server });
    const blogUrl = postbox.addresses.blog as string;
    // Every post listed before the first build, so that it is Astro's time that is measured.
    while (((await (await fetch(`${blogUrl}/api/blog/posts`)).json()) as { total?: number }).total !== corpus.published) await new Promise((resolve) => setTimeout(resolve, 100));
    const cacheDir = path.join(dir, 'astro-cache');
    for (const [label, outDir] of [
      ['cold', path.join(dir, 'site-1')],
      ['no change', path.join(dir, 'site-2')],
    ] as const) {
      const before = requestsIn(postbox.logFile);
      const started = performance.now();
      await buildExample(outDir, cacheDir, blogUrl);
      const seconds = (performance.now() - started) / 1000;
      const requests = requestsIn(postbox.logFile) - before;
      report.add({
        section: SECTION,
        name: `astro build, ${corpus.published} posts, ${label}`,
        value: `${seconds.toFixed(1)} s, ${requests} requests`,
        target: '-',
        verdict: 'INFO',
      });
    }
  } finally {
    await postbox?.stop();
  }
}

/** The requests Postbox has logged so far (one `"msg":"request"` line each). */
function requestsIn(logFile: string): number {
  return readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes('"msg":"request"')).length;
}

async function buildExample(outDir: string, cacheDir: string, blogUrl: string): Promise<void> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', BUILD, EXAMPLE, outDir, cacheDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, POSTBOX_BLOG_URL: blogUrl, POSTBOX_FORMS_URL: 'http://127.0.0.1:9', ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${Buffer.concat(output).toString('utf8')}`);
}
