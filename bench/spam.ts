// Spam checks (docs/spam.md, docs/performance.md "Proof of work"), in one run:
// - what a solution costs a visitor: the widget from /altcha.js solving a form's challenge in Chromium (median ms
//   of the solver's own time, and from the challenge's arrival to the filled field);
// - what it costs a bot: solutions per CPU-second with altcha-lib's solver in Node (hashing in C), and the upper
//   bound of a bot hashing at OpenSSL's raw speed on one core;
// - what checking costs the server: issuing a challenge and verifying a solution, in microseconds;
// - the accepted path with the content rules on beside the same path with them off (two postbox processes,
//   alternating rounds).
import { createHash } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { stringify } from 'smol-toml';
import { chromium } from 'playwright-core';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import { startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { formatCount } from './lib/report.js';
import { median, runSideBySide, type Contender } from './lib/side-by-side.js';
import { addThroughputFigure, runProblems } from './lib/throughput-figure.js';
import { createProofOfWork, POW_COUNTER_MAX, POW_COUNTER_MIN } from '../src/forms/spam/proof-of-work.js';

const SECTION = 'spam';
const BROWSER_SOLVES = 9;
const BOT_SECONDS = 3;
const RULES_MINIMUM = 0.5;
const SUBMISSION = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello! I would like a website for my bakery, with a menu page and a contact form, and a map to find us.',
});

function writeConfig(dir: string, name: string, smtpPort: number, spam: Record<string, unknown>, ORIGIN: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.toml`);
  writeFileSync(
    file,
    stringify({
      data_dir: path.join(dir, `${name}-data`),
      server: { listen: '127.0.0.1:0' },
      mail: { transport: 'smtp', from: 'Bench Forms <forms@bench.example>', to: 'owner@bench.example', smtp: { host: '127.0.0.1', port: smtpPort, secure: false } },
      forms: [
        { path: '/contact', type: 'contact', allowed_origins: [ORIGIN], rate_limit_per_hour: 0, receipt: true, spam },
        { path: '/contact-pow', type: 'contact', allowed_origins: [ORIGIN], rate_limit_per_hour: 0, spam: { proof_of_work: true } },
      ],
    }),
  );
  return file;
}

export async function benchSpam(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Spam: proof of work for a browser and a bot, and the accepted path with the checks on beside off');
  const dir = path.join(context.tmpRoot, 'spam');
  let sink: RunningChild | undefined;
  let withRules: RunningPostbox | undefined;
  let withoutRules: RunningPostbox | undefined;
  // The page the widget runs in: another origin, which the forms allow.
  let page = '';
  const site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  try {
    sink = await startHelper('reference/smtp-sink.ts', [], context.cores.load, true);
    const rules = { max_links: 2, block_disposable: true, languages: ['en'], blocked_words: ['casino', 'crypto airdrop', 'viagra'] };
    withRules = await startPostbox({ configFile: writeConfig(dir, 'rules', Number(sink.address), rules, origin), logFile: path.join(dir, 'rules.log'), services: ['forms'], placement: context.cores.server });
    withoutRules = await startPostbox({ configFile: writeConfig(dir, 'plain', Number(sink.address), {}, origin), logFile: path.join(dir, 'plain.log'), services: ['forms'], placement: context.cores.server });

    const formsUrl = withRules.addresses.forms as string;
    page = `<!doctype html><html lang="en"><head><title>pow</title></head><body><form><altcha-widget challenge="${formsUrl}/contact-pow/challenge" auto="onload"></altcha-widget></form><script src="${formsUrl}/altcha.js"></script></body></html>`;
    await browserCost(context, `${origin}/`);
    await botCost(context);
    await serverCost(context);

    const contenders: Contender[] = [
      { name: 'rules on', base: withRules.addresses.forms as string, pid: withRules.pid },
      { name: 'rules off', base: withoutRules.addresses.forms as string, pid: withoutRules.pid },
    ];
    const request = { path: '/contact', method: 'POST' as const, headers: { 'content-type': 'application/json', origin }, body: SUBMISSION };
    const accepted = await runSideBySide(contenders, request, sideBySideOptions(context));
    addThroughputFigure(report, accepted, {
      section: SECTION,
      name: 'POST /contact accepted, content rules on (links, disposable, language, words)',
      subject: 'rules on',
      reference: 'rules off',
      minimumRatio: RULES_MINIMUM,
      cpuBound: false,
      problems: [...runProblems(accepted, 'rules on', true), ...runProblems(accepted, 'rules off', true)],
    });
  } finally {
    await withRules?.stop();
    await withoutRules?.stop();
    await sink?.stop();
    site.close();
  }
}

/** The widget in Chromium, on a page of another origin (`siteUrl`), against the real service. */
async function browserCost(context: BenchContext, siteUrl: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const solver: number[] = [];
  const field: number[] = [];
  try {
    for (let i = 0; i < BROWSER_SOLVES; i += 1) {
      const tab = await browser.newPage();
      const challenge = tab.waitForResponse((response) => response.url().endsWith('/contact-pow/challenge'));
      await tab.goto(siteUrl);
      await challenge;
      const arrived = performance.now();
      await tab.waitForFunction(() => (document.querySelector('input[name="altcha"]') as HTMLInputElement | null)?.value, null, { timeout: 60_000 });
      field.push(performance.now() - arrived);
      const value = await tab.evaluate(() => (document.querySelector('input[name="altcha"]') as HTMLInputElement).value);
      solver.push(JSON.parse(Buffer.from(value, 'base64').toString()).solution.time as number);
      await tab.close();
    }
  } finally {
    await browser.close();
  }
  context.report.add({
    section: SECTION,
    name: 'a solution in Chromium (the widget, median)',
    value: `${median(solver).toFixed(0)} ms`,
    target: '-',
    verdict: 'INFO',
    detail: `solver time per page ${solver.map((ms) => ms.toFixed(0)).join(' ')} ms; challenge arrival to filled field median ${median(field).toFixed(0)} ms (the widget waits at least 500 ms); counters drawn from ${formatCount(POW_COUNTER_MIN)} to ${formatCount(POW_COUNTER_MAX)}`,
  });
}

/** A bot solving in Node with OpenSSL's SHA-256, and the bound of a bot hashing at raw speed. */
async function botCost(context: BenchContext): Promise<void> {
  const pow = createProofOfWork({ form: '/x', minSeconds: 0, expiresSeconds: 600, secrets: async () => ({ secret: 's', keySecret: 'k' }) }, { useOnce: async () => true });
  const started = process.cpuUsage();
  const deadline = performance.now() + BOT_SECONDS * 1000;
  let solved = 0;
  while (performance.now() < deadline) {
    const solution = await solveChallenge({ challenge: await pow.issue(Date.now()), deriveKey });
    if (solution) solved += 1;
  }
  const used = process.cpuUsage(started);
  const cpuSeconds = (used.user + used.system) / 1e6;
  // Raw SHA-256 of a challenge-sized input, as a bot written in C would hash.
  const input = Buffer.alloc(36, 7);
  const hashStart = process.cpuUsage();
  const hashes = 2_000_000;
  for (let i = 0; i < hashes; i += 1) {
    input.writeUInt32BE(i, 32);
    createHash('sha256').update(input).digest();
  }
  const hashUsed = process.cpuUsage(hashStart);
  const perHashUs = (hashUsed.user + hashUsed.system) / hashes;
  const meanCounter = (POW_COUNTER_MIN + POW_COUNTER_MAX) / 2;
  context.report.add({
    section: SECTION,
    name: 'a bot: solutions per CPU-second (Node, one core)',
    value: `${(solved / cpuSeconds).toFixed(1)}/s`,
    target: '-',
    verdict: 'INFO',
    detail: `${solved} solutions in ${cpuSeconds.toFixed(2)} CPU-s with altcha-lib's solver; at ${perHashUs.toFixed(2)} us a hash through node:crypto a bot needs ${((meanCounter * perHashUs) / 1000).toFixed(0)} ms a solution (${(1e6 / (meanCounter * perHashUs)).toFixed(1)}/CPU-s); hashing in C without Node's per-call cost is some 5 to 10 times faster still`,
  });
}

/** Issuing a challenge and verifying a solution, in process. */
async function serverCost(context: BenchContext): Promise<void> {
  const pow = createProofOfWork({ form: '/x', minSeconds: 0, expiresSeconds: 600, secrets: async () => ({ secret: 's', keySecret: 'k' }) }, { useOnce: async () => true });
  const issued: number[] = [];
  const values: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    const challenge = await pow.issue(Date.now());
    issued.push((performance.now() - start) * 1000);
    const solution = await solveChallenge({ challenge, deriveKey });
    values.push(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
  }
  const verified: number[] = [];
  for (const value of values) {
    const start = performance.now();
    const reason = await pow.check(value, Date.now());
    verified.push((performance.now() - start) * 1000);
    if (reason !== undefined) throw new Error(`a solved challenge did not pass: ${reason}`);
  }
  context.report.add({
    section: SECTION,
    name: 'the server: issue a challenge / verify a solution (median)',
    value: `${median(issued).toFixed(0)} us / ${median(verified).toFixed(0)} us`,
    target: '-',
    verdict: 'INFO',
    detail: 'one SHA-256 and one HMAC to issue; two HMACs to verify, never the work itself',
  });
}
