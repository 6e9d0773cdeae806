// Form attachments (docs/attachments.md, docs/performance.md "Attachments"), in one run against one postbox process
// with a real clamd (test/support/clamd-server.ts) and an SMTP sink:
// - a 10 MB upload on `files` storage and on an S3-compatible server (s3rver): the time to the answer, and the
//   growth of postbox's resident memory (sampled from /proc every 5 ms) over its level before the upload;
// - accepted small submissions per second, a JSON body beside a multipart body with a 1 KB PDF (scanned by clamd),
//   alternating rounds on the same process.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { startClamd, type TestClamd } from '../test/support/clamd-server.js';
import { startS3, type TestS3 } from '../test/support/s3-server.js';
import type { BenchContext } from './lib/context.js';
import { startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { formatBytes } from './lib/report.js';
import { median } from './lib/side-by-side.js';

const SECTION = 'attachments';
const ORIGIN = 'https://bench.example';
const BOUNDARY = 'postbox-bench-boundary';
const MB = 1024 * 1024;
const FIELDS = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! Please find the document attached to this message.' };
const SMALL_PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 - 16, 0x20), Buffer.from('\n%%EOF\n')]);
const LARGE_PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(10 * MB - 16, 0x20), Buffer.from('\n%%EOF\n')]);
const CONCURRENCY = 8;
const UPLOADS = 3;

function multipart(file: Buffer): Buffer {
  const parts: Buffer[] = Object.entries(FIELDS).map(([name, value]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="document.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), file);
  parts.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

function writeConfig(dir: string, name: string, smtpPort: number, storage: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.toml`);
  const attachments = { max_files: 1, max_bytes: 11 * MB, types: ['application/pdf'] };
  writeFileSync(
    file,
    stringify({
      data_dir: path.join(dir, `${name}-data`),
      server: { listen: '127.0.0.1:0', public_url: 'https://forms.bench.example' },
      mail: { transport: 'smtp', from: 'Bench Forms <forms@bench.example>', to: 'owner@bench.example', smtp: { host: '127.0.0.1', port: smtpPort, secure: false } },
      storage,
      forms: [{ path: '/contact', type: 'contact', allowed_origins: [ORIGIN], rate_limit_per_hour: 0, attachments }],
    }),
  );
  return file;
}

const residentBytes = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function post(base: string, body: Buffer | string, contentType: string): Promise<number> {
  const response = await fetch(`${base}/contact`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': contentType }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  await response.arrayBuffer();
  return response.status;
}

/** 10 MB uploads, one to warm up then UPLOADS measured: seconds to the answer and peak resident growth over the level before each. */
async function largeUploads(postbox: RunningPostbox): Promise<Array<{ seconds: number; growth: number; status: number }>> {
  const base = postbox.addresses.forms as string;
  const body = multipart(LARGE_PDF);
  await post(base, body, `multipart/form-data; boundary=${BOUNDARY}`);
  const results = [];
  for (let upload = 0; upload < UPLOADS; upload += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = residentBytes(postbox.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(postbox.pid))), 5);
    const started = performance.now();
    const status = await post(base, body, `multipart/form-data; boundary=${BOUNDARY}`);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    results.push({ seconds, growth: Math.max(0, peak - before), status });
  }
  return results;
}

/** Accepted submissions per second over `seconds`, CONCURRENCY requests at a time; throws on any other answer. */
async function acceptedPerSecond(base: string, body: Buffer | string, contentType: string, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let accepted = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const status = await post(base, body, contentType);
      if (status !== 200) throw new Error(`a submission was answered ${status}`);
      accepted += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return accepted / ((performance.now() - started) / 1000);
}

export async function benchAttachments(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Attachments: a 10 MB upload on files and S3 storage; small submissions with and without a file');
  const dir = path.join(context.tmpRoot, 'attachments');
  let sink: RunningChild | undefined;
  let clamd: TestClamd | undefined;
  let s3: TestS3 | undefined;
  const running: RunningPostbox[] = [];
  try {
    sink = await startHelper('reference/smtp-sink.ts', [], context.cores.load, true);
    [clamd, s3] = await Promise.all([startClamd(), startS3()]);
    const start = async (name: string, storage: Record<string, unknown>) => {
      const postbox = await startPostbox({ configFile: writeConfig(dir, name, Number(sink!.address), { ...storage, clamd: clamd!.address }), logFile: path.join(dir, `${name}.log`), services: ['forms'], placement: context.cores.server });
      running.push(postbox);
      return postbox;
    };
    const files = await start('files', { kind: 'files' });
    const bucket = await start('s3', s3.storage);
    for (const [label, postbox] of [['files', files], ['s3', bucket]] as const) {
      const uploads = await largeUploads(postbox);
      const growth = median(uploads.map((upload) => upload.growth));
      report.add({
        section: SECTION,
        name: `a 10 MB upload on ${label} storage: resident memory growth (median of ${UPLOADS})`,
        value: formatBytes(growth),
        target: '< 10 MB',
        verdict: uploads.every((upload) => upload.status === 200) && growth < 10 * MB ? 'PASS' : 'FAIL',
        detail: `growth ${uploads.map((upload) => formatBytes(upload.growth)).join(' ')}; answered in ${uploads.map((upload) => upload.seconds.toFixed(2)).join(' ')} s (streamed to storage, scanned by clamd, mailed as a link)`,
      });
    }

    const base = files.addresses.forms as string;
    const json = JSON.stringify(FIELDS);
    const withFile = multipart(SMALL_PDF);
    const plain: number[] = [];
    const attached: number[] = [];
    for (let round = 0; round < Math.max(2, Math.min(context.rounds, 3)); round += 1) {
      plain.push(await acceptedPerSecond(base, json, 'application/json', context.seconds));
      attached.push(await acceptedPerSecond(base, withFile, `multipart/form-data; boundary=${BOUNDARY}`, context.seconds));
    }
    report.add({
      section: SECTION,
      name: 'accepted small submissions per second, without a file',
      value: `${median(plain).toFixed(0)}/s`,
      target: '-',
      verdict: 'INFO',
      detail: `rounds ${plain.map((rate) => rate.toFixed(0)).join(' ')}; ${CONCURRENCY} at a time, owner mail over SMTP`,
    });
    report.add({
      section: SECTION,
      name: 'accepted small submissions per second, with a 1 KB PDF',
      value: `${median(attached).toFixed(0)}/s`,
      target: '-',
      verdict: 'INFO',
      detail: `rounds ${attached.map((rate) => rate.toFixed(0)).join(' ')}; each file written, read back for clamd's INSTREAM, linked; ${(median(attached) / median(plain)).toFixed(2)} of the rate without`,
    });
  } finally {
    for (const postbox of running) await postbox.stop();
    await sink?.stop();
    await clamd?.close();
    await s3?.close();
  }
}
