// A campaign to 10,000 subscribers (docs/newsletter.md "Sending a post") into the local SMTP sink with the
// sending rate limit lifted, beside a nodemailer pool sending the same number of mails of the same size straight
// to the sink (the SMTP server's pace). Also samples the resident memory of `postbox serve` while it sends: it
// must stay flat, not grow with the recipients sent.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
/** Growth of resident memory allowed from the first tenth of the campaign to its end. */
const MEMORY_GROWTH_MAXIMUM = 32 * 1024 * 1024;
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
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['forms', 'blog'], placement: context.cores.server, cpuProfileDir: context.cpuProfileDir });
    const samples: Array<{ sent: number; rss: number }> = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { messages } = await sinkCounts(sink!.child, CAMPAIGN_SENDER);
        samples.push({ sent: messages, rss: residentBytes(postbox!.pid) });
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
    const peak = Math.max(...samples.filter((sample) => sample.sent >= tenth.sent).map((sample) => sample.rss));
    const half = samples.find((sample) => sample.sent >= SUBSCRIBERS / 2) ?? tenth;
    const last = samples.at(-1)!;
    report.add({
      section: SECTION,
      name: 'resident memory of postbox serve from a tenth of the campaign to its end',
      value: `+${formatBytes(Math.max(0, peak - tenth.rss))}`,
      target: `<= ${formatBytes(MEMORY_GROWTH_MAXIMUM)}`,
      verdict: peak - tenth.rss <= MEMORY_GROWTH_MAXIMUM ? 'PASS' : 'FAIL',
      detail: `at 10 %: ${formatBytes(tenth.rss)}, at 50 %: ${formatBytes(half.rss)}, at the end: ${formatBytes(last.rss)}, peak after 10 %: ${formatBytes(peak)} (${samples.length} samples)`,
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
