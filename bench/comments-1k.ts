// Comments: the thread of a post with 1,000 published comments (`GET /api/blog/posts/<slug>/comments`, its body
// and ETag made once per version of the thread) against that post's detail on the same server, in the same
// alternating rounds. Target: the thread at least 1 / 1.5 of the detail's throughput (docs/performance.md
// "Figures"). The comments are posted through the API first, as visitors would post them. With
// BENCH_COMMENTS_BACKEND=postgres the comments are kept in a PostgreSQL the bench starts (docs/performance.md "A
// thread of 1,000 comments").
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import { generateCorpus } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { startPostbox, type RunningPostbox } from './lib/processes.js';
import { runSideBySide } from './lib/side-by-side.js';
import { formatCount } from './lib/report.js';
import { addThroughputFigure, runProblems } from './lib/throughput-figure.js';
import { startPostgresServer, type TestPostgres } from '../test/support/postgres-server.js';

const SECTION = 'comments 1k';
const COMMENTS = 1000;
const ORIGIN = 'https://bench.example';
/** What Chromium and Firefox send. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** The bytes and coding of `url`'s answer to a browser's Accept-Encoding (fetch decodes the body, not the header). */
async function sentSize(url: string): Promise<string> {
  const response = await fetch(url, { headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING } });
  await response.arrayBuffer();
  return `${formatCount(Number(response.headers.get('content-length')))} bytes ${response.headers.get('content-encoding') ?? 'plain'}`;
}

export async function benchComments1k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Comments: the thread of a post with 1,000 comments against the post detail, same server');
  const dir = path.join(context.tmpRoot, 'comments-1k');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: 100, seed: 45 });
  const configFile = writeBlogConfig(dir, corpus.dir);
  // Published at once and unlimited, so that the bench can post its thread; proof of work is a visitor's cost.
  appendFileSync(
    configFile,
    `\n[blog.comments]\nenabled = true\nmoderation = "none"\nrate_limit_per_hour = 0\nallowed_origins = ["${ORIGIN}"]\n\n[blog.comments.spam]\nproof_of_work = false\n`,
  );
  const backend = process.env.BENCH_COMMENTS_BACKEND ?? 'files';
  if (backend !== 'files' && backend !== 'postgres') throw new Error(`BENCH_COMMENTS_BACKEND is "files" or "postgres", not "${backend}"`);
  const slug = corpus.slugs[0] as string;
  let postbox: RunningPostbox | undefined;
  let postgres: TestPostgres | undefined;
  try {
    if (backend === 'postgres') {
      postgres = await startPostgresServer({ durable: true });
      appendFileSync(configFile, `\n[state]\nbackend = "postgres"\nurl = "${postgres.url}"\n`);
      report.note('comments kept in PostgreSQL (BENCH_COMMENTS_BACKEND=postgres)');
    }
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['blog'], placement: context.cores.server, cpuProfileDir: context.cpuProfileDir });
    const base = postbox.addresses.blog as string;
    const thread = `${base}/api/blog/posts/${slug}/comments`;
    // PostgreSQL is migrated in the background: the thread answers once that is done.
    for (let tries = 0; (await fetch(thread)).status !== 200; tries += 1) {
      if (tries === 100) throw new Error('the thread did not answer 200 within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let parent: string | null = null;
    for (let index = 0; index < COMMENTS; index += 1) {
      const response = await fetch(thread, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, accept: 'application/json' },
        // Every tenth a reply to the one before, the others at the top: a thread as readers make one.
        body: JSON.stringify({ name: `Reader ${index}`, email: `reader${index}@example.org`, text: `Comment ${index}: a thought of a few words about the post, with a [link](https://example.org/${index}).`, parent: index % 10 === 9 ? parent : null }),
      });
      const answer = (await response.json()) as { id?: string; status?: string };
      if (response.status !== 202 || answer.status !== 'published') throw new Error(`comment ${index}: ${response.status} ${JSON.stringify(answer)}`);
      parent = answer.id ?? null;
    }
    const listed = (await (await fetch(thread)).json()) as { total: number };
    if (listed.total !== COMMENTS) throw new Error(`the thread lists ${listed.total} comments, not ${COMMENTS}`);
    // What the load generator receives for each: both compressed, the same coding.
    const sizes = await Promise.all([thread, `${base}/api/blog/posts/${slug}`].map((url) => sentSize(url)));
    report.note(`answers as a browser gets them: thread ${sizes[0]}, detail ${sizes[1]}`);
    if (context.tool === 'autocannon') {
      report.note('autocannon turns every body it receives into a string (UTF-8 decoding of brotli bytes): the thread pays that per byte, a browser does not; wrk is the load generator of the recorded figures');
    }
    const results = await runSideBySide(
      [
        { name: 'comments', base: thread, pid: postbox.pid },
        { name: 'detail', base: `${base}/api/blog/posts/${slug}`, pid: postbox.pid },
      ],
      // As a browser asks (and as the widget's fetch does): both answers come compressed when they are large enough.
      { path: '', method: 'GET', headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING } },
      sideBySideOptions(context),
    );
    addThroughputFigure(report, results, {
      section: backend === 'postgres' ? `${SECTION} postgres` : SECTION,
      name: `GET /api/blog/posts/<slug>/comments, ${COMMENTS} comments${backend === 'postgres' ? ' in PostgreSQL' : ''}, of the post detail`,
      subject: 'comments',
      reference: 'detail',
      minimumRatio: 1 / 1.5,
      cpuBound: true,
      problems: [...runProblems(results, 'comments', true), ...runProblems(results, 'detail', true)],
    });
  } finally {
    await postbox?.stop();
    await postgres?.close();
  }
}
