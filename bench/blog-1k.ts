// Blog, 1,000 posts: five cached URLs against a bare node:http server answering the same bytes from
// memory, headers and body (target: at least 0.9 of its throughput), and, where installed, nginx serving the
// bodies as files (information only: nginx adds its own headers). Then the compressed path in the same run: three
// of the URLs asked with `Accept-Encoding: br` and `gzip`, against node:http answering the same compressed bytes
// (docs/performance.md "Compressed blog answers").
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import { generateCorpus, MARKER_WORD } from './lib/corpus.js';
import { writeBlogConfig } from './lib/config-files.js';
import { createClient, parseJson, replayableHeaders } from './lib/http-client.js';
import { findNginx, startNginx, type RunningNginx, type StaticRoute } from './lib/nginx.js';
import { startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { runAtOnce, runSideBySide, type Contender } from './lib/side-by-side.js';
import { addThroughputFigure, runProblems } from './lib/throughput-figure.js';

const SECTION = 'blog 1k';
const MINIMUM_RATIO = 0.9;
/** The codings the compressed path is measured in, and the plain URLs (by index) it is measured on. */
const CODINGS = ['br', 'gzip'] as const;
const COMPRESSED_URLS = [0, 2, 4];

/** Runs the 1,000-post throughput comparison and adds one line per URL to the report. */
export async function benchBlog1k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Blog, 1,000 posts: throughput against the same bytes served by node:http (and nginx)');
  const dir = path.join(context.tmpRoot, 'blog-1k');
  const corpus = generateCorpus(path.join(dir, 'posts'), { posts: 1000, seed: 1000 });
  report.note(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MB, ${corpus.published} published posts, "${MARKER_WORD}" in ${corpus.termCounts[MARKER_WORD]}`);
  const configFile = writeBlogConfig(dir, corpus.dir);
  const slug = corpus.slugs[Math.floor(corpus.slugs.length / 3)] as string;
  const urls = [
    '/api/blog/posts',
    '/api/blog/posts?page=3&limit=50',
    `/api/blog/posts/${slug}`,
    `/api/blog/posts?q=${MARKER_WORD}`,
    '/api/blog/feed.xml',
  ];

  let postbox: RunningPostbox | undefined;
  let reference: RunningChild | undefined;
  let nginx: RunningNginx | undefined;
  try {
    postbox = await startPostbox({
      configFile,
      logFile: path.join(dir, 'postbox.log'),
      services: ['blog'],
      placement: context.cores.server,
      cpuProfileDir: context.cpuProfileDir,
    });
    const base = postbox.addresses.blog as string;
    const routes = await captureRoutes(base, urls, corpus.published, corpus.termCounts[MARKER_WORD] ?? 0, context);
    const manifestFile = path.join(dir, 'manifest.json');
    writeFileSync(
      manifestFile,
      JSON.stringify(Object.fromEntries(routes.map((route) => [route.url, { headers: route.headers, bodyBase64: route.body.toString('base64') }]))),
    );
    reference = await startHelper('reference/static-server.ts', [manifestFile], context.cores.server);
    const contenders: Contender[] = [
      { name: 'postbox', base, pid: postbox.pid },
      { name: 'node:http', base: reference.address, pid: reference.pid },
    ];
    const nginxBinary = findNginx();
    if (nginxBinary) {
      mkdirSync(path.join(dir, 'nginx'));
      nginx = await startNginx(nginxBinary, path.join(dir, 'nginx'), routes, context.cores.server);
      contenders.push({ name: 'nginx', base: nginx.base, pid: nginx.pid });
    } else {
      report.note('nginx is not installed: comparing with node:http only (apt-get install nginx-light to add it)');
    }
    for (const route of routes) await measureRoute(context, contenders, route.url, `GET ${route.url.replace(slug, '<slug>')}`, {});
    await nginx?.stop();
    nginx = undefined;
    await reference.stop();
    reference = undefined;

    // The compressed path: each form is compressed on its first request (timed here), then served from memory.
    for (const coding of CODINGS) {
      const plainRoutes = COMPRESSED_URLS.map((index) => routes[index] as StaticRoute);
      const encoded: StaticRoute[] = [];
      for (const plain of plainRoutes) {
        const first = await fetchEncoded(base + plain.url, coding);
        const again = await fetchEncoded(base + plain.url, coding);
        const decoded = coding === 'br' ? brotliDecompressSync(again.body) : gunzipSync(again.body);
        if (again.headers['content-encoding'] !== coding || !decoded.equals(plain.body)) throw new Error(`GET ${plain.url} in ${coding}: not the plain bytes compressed`);
        report.note(
          `GET ${plain.url.replace(slug, '<slug>')} in ${coding}: ${formatKb(plain.body.length)} plain, ${formatKb(again.body.length)} sent; first request ${first.ms.toFixed(1)} ms (compressing), then ${again.ms.toFixed(1)} ms`,
        );
        encoded.push({ url: plain.url, contentType: plain.contentType, headers: replayableHeaders(Object.entries(again.headers)), body: again.body });
      }
      const encodedManifest = path.join(dir, `manifest-${coding}.json`);
      writeFileSync(encodedManifest, JSON.stringify(Object.fromEntries(encoded.map((route) => [route.url, { headers: route.headers, bodyBase64: route.body.toString('base64') }]))));
      reference = await startHelper('reference/static-server.ts', [encodedManifest], context.cores.server);
      const pair: Contender[] = [
        { name: 'postbox', base, pid: postbox.pid },
        { name: 'node:http', base: reference.address, pid: reference.pid },
      ];
      for (const route of encoded) await measureRoute(context, pair, route.url, `GET ${route.url.replace(slug, '<slug>')} (${coding})`, { 'accept-encoding': coding });
      await reference.stop();
      reference = undefined;
    }
  } finally {
    await nginx?.stop();
    await reference?.stop();
    await postbox?.stop();
  }
}

/** Alternating rounds of `url` on every contender, then postbox and node:http at the same moment: one report line. */
async function measureRoute(context: BenchContext, contenders: Contender[], url: string, name: string, headers: Record<string, string>): Promise<void> {
  const results = await runSideBySide(contenders, { path: url, headers }, sideBySideOptions(context));
  // postbox and node:http only: nginx beside them would take a share of the core that is not theirs.
  const pair = contenders.slice(0, 2);
  const atOnce = await runAtOnce(pair, { path: url, headers }, sideBySideOptions(context));
  addThroughputFigure(context.report, results, {
    section: SECTION,
    name,
    subject: 'postbox',
    reference: 'node:http',
    minimumRatio: MINIMUM_RATIO,
    cpuBound: true,
    atOnce,
    problems: [
      ...contenders.flatMap((contender) => runProblems(results, contender.name, true)),
      ...pair.flatMap((contender) => runProblems(atOnce, contender.name, true)),
    ],
  });
}

/** One GET with `Accept-Encoding: coding` on a connection of its own, the body as sent (not decompressed), timed. */
function fetchEncoded(url: string, coding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers: { 'accept-encoding': coding }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Fetches every URL once from postbox, checks the answer is the real thing, and keeps its bytes. */
async function captureRoutes(base: string, urls: string[], published: number, markerPosts: number, context: BenchContext): Promise<StaticRoute[]> {
  const client = createClient();
  try {
    const routes: StaticRoute[] = [];
    for (const url of urls) {
      const response = await client.get(base + url);
      if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
      const listing = url.startsWith('/api/blog/posts?') || url === '/api/blog/posts' ? parseJson<{ total?: number }>(response) : undefined;
      const expected = url.includes('q=') ? markerPosts : published;
      if (listing && listing.total !== expected) {
        context.report.note(`GET ${url}: total ${listing.total}, the corpus has ${expected}`);
      }
      const headers = replayableHeaders(Object.entries(response.headers));
      routes.push({ url, contentType: String(response.headers['content-type'] ?? 'application/octet-stream'), headers, body: response.body });
    }
    return routes;
  } finally {
    client.close();
  }
}
