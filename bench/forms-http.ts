// Forms over HTTP: the validation-rejected path against a bare node:http server that parses the same JSON and
// answers 400 (target 0.6), and the accepted path (owner mail and receipt over SMTP to a local smtp-server)
// against a bare nodemailer pool sending the same two mails (target 0.7, every mail received).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import { BENCH_ORIGIN, FORM_PATH, writeFormsConfig } from './lib/config-files.js';
import { delay, startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { replayableHeaders } from './lib/http-client.js';
import { formatCount } from './lib/report.js';
import { runSideBySide, type Contender } from './lib/side-by-side.js';
import { addThroughputFigure, runProblems } from './lib/throughput-figure.js';

const SECTION = 'forms';
const REJECTED_MINIMUM = 0.6;
const ACCEPTED_MINIMUM = 0.7;

/** A submission every rule rejects: name too short, email invalid, message too short. */
const INVALID_SUBMISSION = JSON.stringify({ name: 'A', email: 'not an address', message: 'too short' });
const VALID_SUBMISSION = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello! I would like a website for my bakery, with a menu page and a contact form.',
});
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The rejected submission as a script sends it (no Origin) and as a browser on the site does (an allowed
 * Origin, answered with the CORS headers); the reference answers each with the headers postbox answered.
 */
const REJECTED_VARIANTS = [
  { id: 'script', label: 'no Origin', headers: JSON_HEADERS },
  { id: 'browser', label: 'allowed Origin', headers: { ...JSON_HEADERS, origin: BENCH_ORIGIN } },
];

/** Runs both forms comparisons against one postbox process and one SMTP sink. */
export async function benchFormsHttp(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section('Forms: rejected and accepted submissions against bare node:http references');
  const dir = path.join(context.tmpRoot, 'forms');
  let sink: RunningChild | undefined;
  let postbox: RunningPostbox | undefined;
  let rejecting: RunningChild | undefined;
  let mailing: RunningChild | undefined;
  try {
    sink = await startHelper('reference/smtp-sink.ts', [], context.cores.load, true);
    const configFile = writeFormsConfig(dir, Number(sink.address));
    postbox = await startPostbox({
      configFile,
      logFile: path.join(dir, 'postbox.log'),
      services: ['forms'],
      placement: context.cores.server,
      cpuProfileDir: context.cpuProfileDir,
    });
    const base = postbox.addresses.forms as string;

    for (const variant of REJECTED_VARIANTS) {
      const recorded = await post(base, INVALID_SUBMISSION, variant.headers);
      if (recorded.status !== 400) throw new Error(`the invalid submission answered ${recorded.status}: ${recorded.body}`);
      const answerFile = path.join(dir, `rejected-answer-${variant.id}.json`);
      writeFileSync(answerFile, JSON.stringify({ headers: recorded.headers, body: recorded.body }));
      rejecting = await startHelper('reference/rejecting-server.ts', [answerFile], context.cores.server);
      const rejected = await runSideBySide(
        [
          { name: 'postbox', base, pid: postbox.pid },
          { name: 'node:http', base: rejecting.address, pid: rejecting.pid },
        ],
        { path: FORM_PATH, method: 'POST', headers: variant.headers, body: INVALID_SUBMISSION },
        sideBySideOptions(context),
      );
      addThroughputFigure(report, rejected, {
        section: SECTION,
        name: `POST ${FORM_PATH} rejected (400 validation), ${variant.label}`,
        subject: 'postbox',
        reference: 'node:http',
        minimumRatio: REJECTED_MINIMUM,
        cpuBound: true,
        problems: [...runProblems(rejected, 'postbox', false), ...runProblems(rejected, 'node:http', false)],
      });
      await rejecting.stop();
      rejecting = undefined;
    }

    mailing = await startHelper('reference/mailing-server.ts', [sink.address, 'receipt'], context.cores.server);
    const sinkChild = sink.child;
    const postboxBase = base;
    const mailingBase = mailing.address;
    const deliveries = { expected: 0, received: 0 };
    const sizes: Record<string, SinkCounts> = {};
    const problems: string[] = [];
    const checkMails = (name: string, completed: () => Promise<Completed>) => async () => {
      const before = await completed();
      const mailsBefore = await sinkCounts(sinkChild);
      return async () => {
        const settled = await settle(sinkChild);
        const after = await completed();
        const done = after.completed - before.completed;
        const mails = settled.messages - mailsBefore.messages;
        deliveries.expected += 2 * done;
        deliveries.received += mails;
        const size = (sizes[name] ??= { messages: 0, bytes: 0 });
        size.messages += mails;
        size.bytes += settled.bytes - mailsBefore.bytes;
        if (mails !== 2 * done) problems.push(`${name}: ${done} submissions completed, ${mails} mails received (expected ${2 * done})`);
        if (after.failed > before.failed) problems.push(`${name}: ${after.failed - before.failed} failed deliveries`);
      };
    };
    const contenders: Contender[] = [
      withMailCheck({ name: 'postbox', base: postboxBase, pid: postbox.pid }, checkMails('postbox', () => postboxCompleted(postboxBase))),
      withMailCheck({ name: 'nodemailer', base: mailingBase, pid: mailing.pid }, checkMails('nodemailer', () => referenceCompleted(mailingBase))),
    ];
    const accepted = await runSideBySide(contenders, { path: FORM_PATH, method: 'POST', headers: JSON_HEADERS, body: VALID_SUBMISSION }, sideBySideOptions(context));
    addThroughputFigure(report, accepted, {
      section: SECTION,
      name: `POST ${FORM_PATH} accepted (owner mail + receipt over SMTP)`,
      subject: 'postbox',
      reference: 'nodemailer',
      minimumRatio: ACCEPTED_MINIMUM,
      // Delivery waits on SMTP round trips: the pool's connections, not the CPU, set the pace.
      cpuBound: false,
      problems: [...runProblems(accepted, 'postbox', true), ...runProblems(accepted, 'nodemailer', true), ...problems],
    });
    report.add({
      section: SECTION,
      name: 'mails received by the SMTP server',
      value: `${formatCount(deliveries.received)} of ${formatCount(deliveries.expected)}`,
      target: 'all',
      verdict: deliveries.received === deliveries.expected && deliveries.expected > 0 ? 'PASS' : 'FAIL',
      detail: [
        'two mails (owner + receipt) per completed submission, both sides, every run including warm-up',
        `mean mail size: ${Object.entries(sizes).map(([name, size]) => `${name} ${Math.round(size.bytes / Math.max(1, size.messages))} bytes`).join(', ')}`,
      ].join('; '),
    });
  } finally {
    await rejecting?.stop();
    await mailing?.stop();
    await postbox?.stop();
    await sink?.stop();
  }
}

interface Completed {
  completed: number;
  failed: number;
}

/** Wraps a contender so that each of its runs is bracketed by a mail check (before: snapshot; after: compare). */
function withMailCheck(contender: Contender, start: () => Promise<() => Promise<void>>): Contender {
  let finish: (() => Promise<void>) | undefined;
  return {
    ...contender,
    beforeRun: async () => {
      finish = await start();
    },
    afterRun: async () => {
      await finish?.();
    },
  };
}

async function post(base: string, body: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(base + FORM_PATH, { method: 'POST', headers, body });
  return { status: response.status, headers: replayableHeaders(response.headers), body: await response.text() };
}

/** postbox's own counters (docs/forms-api.md "/metrics"): owner notifications sent, and failures. */
async function postboxCompleted(base: string): Promise<Completed> {
  const metrics = (await (await fetch(`${base}/metrics`)).json()) as { totals: Record<string, number> };
  const totals = metrics.totals;
  return { completed: totals.sent ?? 0, failed: (totals.send_failed ?? 0) + (totals.auto_reply_failed ?? 0) };
}

async function referenceCompleted(base: string): Promise<Completed> {
  return (await (await fetch(`${base}/stats`)).json()) as Completed;
}

interface SinkCounts {
  messages: number;
  bytes: number;
}

function sinkCounts(child: ChildProcess): Promise<SinkCounts> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as SinkCounts));
    child.send('counts');
  });
}

/** Waits until the sink's count has not moved for 500 ms (in-flight deliveries finish after the load stops). */
async function settle(child: ChildProcess): Promise<SinkCounts> {
  let last = await sinkCounts(child);
  let stableSince = performance.now();
  const deadline = performance.now() + 60_000;
  while (performance.now() - stableSince < 500 && performance.now() < deadline) {
    await delay(100);
    const now = await sinkCounts(child);
    if (now.messages !== last.messages) stableSince = performance.now();
    last = now;
  }
  return last;
}
