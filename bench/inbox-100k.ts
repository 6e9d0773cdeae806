// The inbox of /admin over a 100,000-line archive (docs/admin.md "Inbox"): `postbox serve` with [admin], signed in
// over HTTP, then the median time of the first page of GET /admin/inbox/<form> (it reads the archive from its end),
// of a search that fills its first page from the newest lines, of a search that matches nothing (the whole archive
// read), and of the CSV export. The same is run over a 10,000-line archive, and serve's resident memory after
// each is compared: reading pages from the end and streaming the export keep it from growing with the archive.
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { hashPassword } from '../src/kit/password-hash.js';
import type { BenchContext } from './lib/context.js';
import { BENCH_ORIGIN, FORM_PATH } from './lib/config-files.js';
import { readMemory, startPostbox, type RunningPostbox } from './lib/processes.js';
import { formatBytes, formatMs } from './lib/report.js';

const SECTION = 'inbox';
const REQUESTS = 50;
/** The most the first page may take: it reads only the archive's last lines (docs/admin.md "Inbox"). */
const FIRST_PAGE_MAXIMUM_MS = 50;
/** Resident memory of serve after the 100,000-line run beyond the 10,000-line run's. */
const RESIDENT_GROWTH_MAXIMUM = 24 * 1024 * 1024;
const PASSWORD = 'bench-inbox-password';
const INBOX = `/admin/inbox/${FORM_PATH.slice(1)}`;

interface RunFigures {
  firstPage: number[];
  search: number[];
  searchNothing: number[];
  exportMs: number;
  exportBytes: number;
  residentBefore: number;
  residentAfter: number;
  residentPeak: number;
}

export async function benchInbox100k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Inbox: a form archive of 100,000 submissions in /admin (against one of 10,000 for memory)');
  const hash = await hashPassword(PASSWORD, randomBytes(16), { N: 16384, r: 8, p: 1 });
  const small = await runOver(context, 10_000, hash);
  const large = await runOver(context, 100_000, hash);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const firstPage = median(large.firstPage);
  report.add({
    section: SECTION,
    name: 'GET /admin/inbox/<form> first page, 100,000-line archive',
    value: formatMs(firstPage),
    target: `< ${FIRST_PAGE_MAXIMUM_MS} ms`,
    verdict: firstPage < FIRST_PAGE_MAXIMUM_MS ? 'PASS' : 'FAIL',
    detail: `median of ${REQUESTS} requests in a row on one connection (slowest ${formatMs(Math.max(...large.firstPage))}); 10,000 lines: ${formatMs(median(small.firstPage))}`,
  });
  report.add({
    section: SECTION,
    name: 'search page (?q=, 1 line in 100 matches), 100,000 lines',
    value: formatMs(median(large.search)),
    target: '-',
    verdict: 'INFO',
    detail: `50 matches fill the first page from the newest 5,000 lines; 10,000 lines: ${formatMs(median(small.search))}`,
  });
  report.add({
    section: SECTION,
    name: 'search page matching nothing (the whole archive read)',
    value: formatMs(median(large.searchNothing)),
    target: '-',
    verdict: 'INFO',
    detail: `100,000 lines; 10,000 lines: ${formatMs(median(small.searchNothing))}`,
  });
  report.add({
    section: SECTION,
    name: 'CSV export of 100,000 submissions (streamed)',
    value: formatMs(large.exportMs),
    target: '-',
    verdict: 'INFO',
    detail: `${formatBytes(large.exportBytes)}; 10,000: ${formatMs(small.exportMs)}, ${formatBytes(small.exportBytes)}`,
  });
  const growth = large.residentAfter - small.residentAfter;
  report.add({
    section: SECTION,
    name: 'resident memory of serve after the requests, 100,000 vs 10,000 lines',
    value: `${growth >= 0 ? '+' : '-'}${formatBytes(Math.abs(growth))}`,
    target: `<= ${formatBytes(RESIDENT_GROWTH_MAXIMUM)}`,
    verdict: growth <= RESIDENT_GROWTH_MAXIMUM ? 'PASS' : 'FAIL',
    detail:
      `10,000 lines: ${formatBytes(small.residentBefore)} signed in, ${formatBytes(small.residentAfter)} after, peak ${formatBytes(small.residentPeak)}; ` +
      `100,000 lines: ${formatBytes(large.residentBefore)} signed in, ${formatBytes(large.residentAfter)} after, peak ${formatBytes(large.residentPeak)}`,
  });
}

/** Serve over an archive of `lines` submissions, signed in; the figures of one run. */
async function runOver(context: BenchContext, lines: number, hash: string): Promise<RunFigures> {
  const dir = path.join(context.tmpRoot, `inbox-${lines}`);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  await writeArchive(path.join(dataDir, 'contact.jsonl'), lines);
  const configFile = path.join(dir, 'inbox.toml');
  writeFileSync(
    configFile,
    stringify({
      data_dir: dataDir,
      server: { listen: '127.0.0.1:0' },
      mail: { transport: 'file', from: 'Bench Forms <forms@bench.example>', to: 'owner@bench.example' },
      forms: [{ path: FORM_PATH, type: 'contact', allowed_origins: [BENCH_ORIGIN], archive: 'contact.jsonl', rate_limit_per_hour: 0 }],
      admin: { users: [{ name: 'bench', password_hash: hash }], secure_cookies: false },
    }),
  );
  let postbox: RunningPostbox | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['forms'], placement: context.cores.server, cpuProfileDir: context.cpuProfileDir });
    const base = postbox.addresses.forms as string;
    const cookie = await signIn(base);
    const get = (url: string) => timedGet(agent, `${base}${url}`, cookie);
    const check = async (url: string, pattern: RegExp) => {
      const answer = await get(url);
      if (answer.status !== 200 || !pattern.test(answer.body)) throw new Error(`GET ${url} answered ${answer.status} without ${String(pattern)}`);
    };
    await check(INBOX, new RegExp(`Person ${lines - 1}<`));
    await check(`${INBOX}?q=tulips+garden`, /Person \d+00</);
    const residentBefore = readMemory(postbox.pid)?.rss ?? 0;
    let residentPeak = residentBefore;
    const sample = () => (residentPeak = Math.max(residentPeak, readMemory(postbox!.pid)?.rss ?? 0));
    const times = async (url: string, count: number) => {
      const result: number[] = [];
      for (let index = 0; index < count; index += 1) {
        result.push((await get(url)).ms);
        sample();
      }
      return result;
    };
    const firstPage = await times(INBOX, REQUESTS);
    const search = await times(`${INBOX}?q=tulips+garden`, REQUESTS);
    const searchNothing = await times(`${INBOX}?q=nowhere+to+be+found`, 10);
    const exported = await get(`${INBOX}/export.csv`);
    sample();
    return { firstPage, search, searchNothing, exportMs: exported.ms, exportBytes: exported.bytes, residentBefore, residentAfter: readMemory(postbox.pid)?.rss ?? 0, residentPeak };
  } finally {
    agent.destroy();
    await postbox?.stop();
  }
}

/** An archive of `count` submissions of everyday size; one in 100 mentions the tulips in the garden. */
async function writeArchive(file: string, count: number): Promise<void> {
  const output = createWriteStream(file);
  const start = Date.UTC(2024, 0, 1);
  for (let index = 0; index < count; index += 1) {
    const message =
      index % 100 === 0
        ? `Hello, the tulips in your garden are lovely this year. Could we visit on a weekday? Message ${index}.`
        : `Hello, I would like to ask about your opening hours and whether groups can book a guided tour. Message ${index}.`;
    const line = {
      received_at: new Date(start + index * 60_000).toISOString().replace('.000Z', 'Z'),
      form: FORM_PATH,
      type: 'contact',
      name: `Person ${index}`,
      email: `person${index}@example.org`,
      message,
    };
    if (!output.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => {
    output.once('error', reject);
    output.end(() => resolve());
  });
}

/** Signs in through /admin/login and returns the session cookie. */
async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'bench', password: PASSWORD }).toString(),
    redirect: 'manual',
  });
  const cookie = /^postbox_admin=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  if (response.status !== 303 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie;
}

/** GET `url` with the cookie over the kept-alive connection, timed to the last byte. */
function timedGet(agent: http.Agent, url: string, cookie: string): Promise<{ status: number; body: string; bytes: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { agent, headers: { cookie } }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      // The export's body is counted, not kept: the bench's own memory is not the figure.
      const keep = !url.endsWith('.csv');
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keep) chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), bytes, ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
