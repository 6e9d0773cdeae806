// A campaign to 10,000 subscribers (docs/newsletter.md "Sending a post") into the local SMTP sink with the
// sending rate limit lifted, beside a nodemailer pool sending the same number of mails of the same size straight
// to the sink (the SMTP server's pace). Memory must stay flat, not grow with the recipients sent: the live heap
// of `postbox serve` after a full garbage collection is measured at a tenth of the campaign and after it (a heap snapshot
// signal forces the collection, --trace-gc prints its result). Resident memory is sampled too, for information:
// it grows while garbage waits for V8's next full collection, which an idle heap puts off.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { CAMPAIGN_SENDER, NEWSLETTER_PATH, writeCampaignConfig } from './lib/config-files.js';
import { benchScriptArgs, delay, REPO_ROOT, spawnPinned, startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { formatBytes, formatCount } from './lib/report.js';
import { sinkCounts } from './lib/sink-counts.js';

const SECTION = 'campaign';
const SUBSCRIBERS = 10_000;
/** The campaign's mails per second against the bare pool's. */
const PACE_MINIMUM = 0.5;
/** Growth of the live heap allowed over the last nine tenths of the campaign (a leak of 1 KB per recipient would be 9 MB). */
const LIVE_HEAP_GROWTH_MAXIMUM = 4 * 1024 * 1024;
const SLUG = 'bench-post';

export async function benchCampaign10k(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section(`Campaign: a post to ${formatCount(SUBSCRIBERS)} subscribers against a bare nodemailer pool`);
  const dir = path.join(context.tmpRoot, 'campaign');
  const contentDir = path.join(dir, 'posts');
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  mkdirSync(contentDir, { recursive: true });
  writeFileSync(path.join(contentDir, `${SLUG}.md`), benchPost());
  const subscribed = (index: number) =>
    `${JSON.stringify({ event: 'subscribed', email: `reader${index}@example.org`, form: NEWSLETTER_PATH, subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
  writeFileSync(path.join(dir, 'data', 'subscribers.jsonl'), Array.from({ length: SUBSCRIBERS }, (_, index) => subscribed(index)).join(''));

  let sink: RunningChild | undefined;
  let postbox: RunningPostbox | undefined;
  try {
    sink = await startHelper('reference/smtp-sink.ts', [], context.cores.load, true);
    const configFile = writeCampaignConfig(dir, Number(sink.address), contentDir);
    const logFile = path.join(dir, 'postbox.log');
    postbox = await startPostbox({
      configFile,
      logFile,
      services: ['forms', 'blog'],
      placement: context.cores.server,
      cpuProfileDir: context.cpuProfileDir,
      nodeFlags: ['--trace-gc', '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`],
    });
    const heapBefore = await liveHeapAfterFullGc(postbox, logFile);
    const samples: Array<{ sent: number; rss: number }> = [];
    let sampling = true;
    /** The live heap once a tenth is sent: start-up and first-use caches are behind it, the campaign is not. */
    let heapAtTenth: number | undefined;
    const sampler = (async () => {
      while (sampling) {
        const { messages } = await sinkCounts(sink!.child, CAMPAIGN_SENDER);
        samples.push({ sent: messages, rss: residentBytes(postbox!.pid) });
        if (heapAtTenth === undefined && messages >= SUBSCRIBERS / 10) heapAtTenth = await liveHeapAfterFullGc(postbox!, logFile);
        await delay(250);
      }
    })();
    const started = performance.now();
    const cli = path.join(REPO_ROOT, 'dist', 'cli.js');
    // Spawned, not run synchronously: the memory sampler above runs in this process meanwhile.
    const command = spawn(process.execPath, [cli, 'newsletter', 'send', '--config', configFile, '--form', NEWSLETTER_PATH, '--post', SLUG], { stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise((resolve) => command.once('close', resolve));
    if (code !== 0) throw new Error(`postbox newsletter send exited with ${String(code)}`);
    const campaignMs = performance.now() - started;
    sampling = false;
    await sampler;
    const heapAfter = await liveHeapAfterFullGc(postbox, logFile);
    const received = (await sinkCounts(sink.child, CAMPAIGN_SENDER)).messages;
    const campaigns = path.join(dir, 'data', 'campaigns');
    const body = JSON.parse(readFileSync(path.join(campaigns, readdirSync(campaigns)[0]!, 'body.json'), 'utf8')) as { html: string };
    const htmlFile = path.join(dir, 'body.html');
    writeFileSync(htmlFile, body.html);
    const reference = await runReference(context, Number(sink.address), htmlFile);

    const postboxRate = (received / campaignMs) * 1000;
    const referenceRate = (SUBSCRIBERS / reference.ms) * 1000;
    const ratio = postboxRate / referenceRate;
    report.add({
      section: SECTION,
      name: `${formatCount(SUBSCRIBERS)} campaign mails into the SMTP sink, mails per second vs the pool`,
      value: `${ratio.toFixed(2)}x`,
      target: `>= ${PACE_MINIMUM}`,
      verdict: ratio >= PACE_MINIMUM && received === SUBSCRIBERS ? 'PASS' : 'FAIL',
      detail: `postbox ${formatCount(postboxRate)}/s (${(campaignMs / 1000).toFixed(1)} s, ${formatCount(received)} received, each durably queued and journaled), nodemailer pool ${formatCount(referenceRate)}/s (${(reference.ms / 1000).toFixed(1)} s, ${reference.failed} failed)`,
    });
    const tenth = samples.find((sample) => sample.sent >= SUBSCRIBERS / 10) ?? samples[0]!;
    const half = samples.find((sample) => sample.sent >= SUBSCRIBERS / 2) ?? tenth;
    const peak = Math.max(...samples.map((sample) => sample.rss));
    const growth = heapAfter - (heapAtTenth ?? heapBefore);
    report.add({
      section: SECTION,
      name: 'live heap of postbox serve after a full GC, from a tenth of the campaign to its end',
      value: `${growth >= 0 ? '+' : '-'}${formatBytes(Math.abs(growth))}`,
      target: `<= ${formatBytes(LIVE_HEAP_GROWTH_MAXIMUM)}`,
      verdict: growth <= LIVE_HEAP_GROWTH_MAXIMUM ? 'PASS' : 'FAIL',
      detail: `before the campaign: ${formatBytes(heapBefore)}, at 10 %: ${heapAtTenth === undefined ? '-' : formatBytes(heapAtTenth)}, after ${formatCount(received)} mails: ${formatBytes(heapAfter)}; resident memory (information): at 10 %: ${formatBytes(tenth.rss)}, at 50 %: ${formatBytes(half.rss)}, peak: ${formatBytes(peak)}`,
    });
  } finally {
    await postbox?.stop();
    await sink?.stop();
  }
}

/** The nodemailer pool sending as many mails of the campaign's HTML size, on the server's cores. */
async function runReference(context: BenchContext, smtpPort: number, htmlFile: string): Promise<{ ms: number; failed: number }> {
  const args = [...benchScriptArgs('reference/campaign-sender.ts'), String(smtpPort), String(SUBSCRIBERS), htmlFile];
  const child = spawnPinned(context.cores.server, process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise((resolve) => child.once('close', resolve));
  return JSON.parse(output.trim().split('\n').at(-1)!) as { ms: number; failed: number };
}

/**
 * Forces a full collection in `postbox` (the heap snapshot signal) and reads its result from the --trace-gc line
 * it prints: `Mark-Compact <before> (<committed>) -> <live> (<committed>) MB`. The snapshot file is removed.
 */
async function liveHeapAfterFullGc(postbox: RunningPostbox, logFile: string): Promise<number> {
  const fullCollections = () => [...readFileSync(logFile, 'utf8').matchAll(/Mark-Compact (?:\(reduce\) )?[\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/g)];
  const seen = fullCollections().length;
  const snapshots = () => readdirSync(path.dirname(logFile)).filter((name) => name.endsWith('.heapsnapshot'));
  const before = snapshots().length;
  process.kill(postbox.pid, 'SIGUSR2');
  for (let waited = 0; waited < 60_000; waited += 100) {
    await delay(100);
    const collections = fullCollections();
    // The snapshot is written after the collection: once it is there, the process is done with both.
    if (collections.length > seen && snapshots().length > before) {
      for (const name of snapshots()) rmSync(path.join(path.dirname(logFile), name), { force: true });
      return Number(collections.at(-1)![1]) * 1024 * 1024;
    }
  }
  throw new Error('postbox printed no full collection after the heap snapshot signal');
}

/** VmRSS of `pid` in bytes, from /proc. */
function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** A post of everyday length: a few paragraphs, a list, a relative link and an image. */
function benchPost(): string {
  const paragraph =
    'The garden opened again this week. The tulips came first, then the first roses along the south wall, and the bees found them within the hour. ' +
    'We rebuilt the path by the pond and put two benches where the morning sun reaches first.';
  return [
    '+++',
    'title = "Spring in the garden"',
    'date = 2026-03-01',
    '+++',
    '',
    paragraph,
    '',
    '## What is new',
    '',
    '- a path by the pond',
    '- two benches',
    '- [the opening hours](/hours)',
    '',
    '![The south wall in May](https://img.bench.example/wall.jpg)',
    '',
    ...Array.from({ length: 6 }, () => [paragraph, '']).flat(),
  ].join('\n');
}
