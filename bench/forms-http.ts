// Forms over HTTP: the validation-rejected path against a bare node:http server that parses the same JSON and
// answers 400 (target 0.75), and the accepted path (owner mail and receipt over SMTP to a local smtp-server)
// with the mail queue on (the default: both mails durably queued before the 200, then sent) against a bare
// nodemailer pool sending the same two mails before it answers (target 0.8, every mail received), with the
// queue's fsyncs per accepted submission. The accepted path runs a second time in the same rounds on a postbox whose
// form also has an `archive` (the line is fsynced before the 200, docs/configuration.md "archive"), beside the
// same path without one.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { sideBySideOptions, type BenchContext } from './lib/context.js';
import { BENCH_ORIGIN, FORM_PATH, writeFormsConfig } from './lib/config-files.js';
import { delay, startHelper, startPostbox, type RunningChild, type RunningPostbox } from './lib/processes.js';
import { replayableHeaders } from './lib/http-client.js';
import type { LoadResult } from './lib/load.js';
import { parse, stringify } from 'smol-toml';
import { formatCount } from './lib/report.js';
import { sinkCounts, type SinkCounts } from './lib/sink-counts.js';
import { median, ratioOf, runAtOnce, runSideBySide, type Contender } from './lib/side-by-side.js';
import { addThroughputFigure, runProblems } from './lib/throughput-figure.js';

const SECTION = 'forms';
const REJECTED_MINIMUM = 0.75;
const ACCEPTED_MINIMUM = 0.8;

/** A submission every rule rejects: name too short, email invalid, message too short. */
const INVALID_SUBMISSION = JSON.stringify({ name: 'A', email: 'not an address', message: 'too short' });
const VALID_SUBMISSION = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello! I would like a website for my bakery, with a menu page and a contact form.',
});
const JSON_HEADERS = { 'content-type': 'application/json' };
/** The envelope senders of the two contenders: mail.from of the bench config, and the reference's. */
const POSTBOX_SENDER = 'forms@bench.example';
const REFERENCE_SENDER = 'refs@bench.example';
/** The postbox whose form keeps an archive: a name and envelope sender of its own, so its mails are told apart. */
const ARCHIVED = 'postbox + archive';
const ARCHIVED_SENDER = 'archive@bench.example';
const ARCHIVE_FILE = 'contact.jsonl';

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
  let archived: RunningPostbox | undefined;
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
      const pair: Contender[] = [
        { name: 'postbox', base, pid: postbox.pid },
        { name: 'node:http', base: rejecting.address, pid: rejecting.pid },
      ];
      const request = { path: FORM_PATH, method: 'POST' as const, headers: variant.headers, body: INVALID_SUBMISSION };
      const rejected = await runSideBySide(pair, request, sideBySideOptions(context));
      const atOnce = await runAtOnce(pair, request, sideBySideOptions(context));
      addThroughputFigure(report, rejected, {
        section: SECTION,
        name: `POST ${FORM_PATH} rejected (400 validation), ${variant.label}`,
        subject: 'postbox',
        reference: 'node:http',
        minimumRatio: REJECTED_MINIMUM,
        cpuBound: true,
        atOnce,
        problems: pair.flatMap((contender) => [...runProblems(rejected, contender.name, false), ...runProblems(atOnce, contender.name, false)]),
      });
      await rejecting.stop();
      rejecting = undefined;
    }

    mailing = await startHelper('reference/mailing-server.ts', [sink.address, 'receipt'], context.cores.server);
    const archivedDir = path.join(dir, 'archived');
    archived = await startPostbox({
      configFile: withArchive(writeFormsConfig(archivedDir, Number(sink.address))),
      logFile: path.join(archivedDir, 'postbox.log'),
      services: ['forms'],
      placement: context.cores.server,
      cpuProfileDir: context.cpuProfileDir,
    });
    const archivedBase = archived.addresses.forms as string;
    const sinkChild = sink.child;
    const postboxBase = base;
    const mailingBase = mailing.address;
    const deliveries = { expected: 0, received: 0 };
    const queueCost = { fsyncs: 0, submissions: 0 };
    const sizes: Record<string, SinkCounts> = {};
    const problems: string[] = [];
    /** Per contender: submissions whose two mails arrived, and seconds from a run's start to its last mail. */
    const endToEnd: Record<string, { submissions: number; seconds: number }> = {};
    /** Per contender: answers 2xx over every run, warm-up included (each must have its archive line). */
    const answered: Record<string, number> = {};
    const countAnswers = (name: string) => (result: { requests: number; non2xx: number }) => {
      answered[name] = (answered[name] ?? 0) + result.requests - result.non2xx;
    };
    const checkMails = (name: string, sender: string, completed: () => Promise<Completed>, drained: () => Promise<boolean>) => async () => {
      const before = await completed();
      const mailsBefore = await sinkCounts(sinkChild, sender);
      const startedAt = performance.now();
      return async () => {
        const settled = await settle(sinkChild, sender, drained);
        const flow = (endToEnd[name] ??= { submissions: 0, seconds: 0 });
        flow.seconds += (settled.lastChangeAt - startedAt) / 1000;
        const after = await completed();
        const done = after.completed - before.completed;
        const mails = settled.messages - mailsBefore.messages;
        flow.submissions += mails / 2;
        deliveries.expected += 2 * done;
        deliveries.received += mails;
        const size = (sizes[name] ??= { messages: 0, bytes: 0 });
        size.messages += mails;
        size.bytes += settled.bytes - mailsBefore.bytes;
        if (after.fsyncs !== undefined && before.fsyncs !== undefined) {
          queueCost.fsyncs += after.fsyncs - before.fsyncs;
          queueCost.submissions += done;
        }
        if (mails !== 2 * done) problems.push(`${name}: ${done} submissions completed, ${mails} mails received (expected ${2 * done})`);
        if (after.failed > before.failed) problems.push(`${name}: ${after.failed - before.failed} failed deliveries`);
      };
    };
    const contenders: Contender[] = [
      withMailCheck(
        { name: 'postbox', base: postboxBase, pid: postbox.pid },
        checkMails('postbox', POSTBOX_SENDER, () => postboxCompleted(postboxBase), () => queueDrained(postboxBase)),
      ),
      withMailCheck(
        { name: ARCHIVED, base: archivedBase, pid: archived.pid },
        checkMails(ARCHIVED, ARCHIVED_SENDER, () => postboxCompleted(archivedBase), () => queueDrained(archivedBase)),
        countAnswers(ARCHIVED),
      ),
      withMailCheck(
        { name: 'nodemailer', base: mailingBase, pid: mailing.pid },
        checkMails('nodemailer', REFERENCE_SENDER, () => referenceCompleted(mailingBase), async () => true),
      ),
    ];
    const accepted = await runSideBySide(contenders, { path: FORM_PATH, method: 'POST', headers: JSON_HEADERS, body: VALID_SUBMISSION }, sideBySideOptions(context));
    addThroughputFigure(report, accepted, {
      section: SECTION,
      name: `POST ${FORM_PATH} accepted (owner mail + receipt queued, then sent over SMTP)`,
      subject: 'postbox',
      reference: 'nodemailer',
      minimumRatio: ACCEPTED_MINIMUM,
      // Delivery waits on SMTP round trips: the pool's connections, not the CPU, set the pace.
      cpuBound: false,
      problems: [...runProblems(accepted, 'postbox', true), ...runProblems(accepted, 'nodemailer', true), ...problems],
    });
    const archiveLines = readFileSync(path.join(archivedDir, 'data', ARCHIVE_FILE), 'utf8').split('\n').filter((line) => line.length > 0).length;
    const archivedAnswers = answered[ARCHIVED] ?? 0;
    addThroughputFigure(report, accepted, {
      section: SECTION,
      name: `POST ${FORM_PATH} accepted with an archive (line fsynced, then mails queued)`,
      subject: ARCHIVED,
      reference: 'nodemailer',
      minimumRatio: ACCEPTED_MINIMUM,
      cpuBound: false,
      problems: [
        ...runProblems(accepted, ARCHIVED, true),
        ...(archiveLines >= archivedAnswers ? [] : [`${ARCHIVED}: ${formatCount(archivedAnswers)} answers 200 but ${formatCount(archiveLines)} archive lines`]),
      ],
    });
    const archiveRatio = ratioOf(accepted, ARCHIVED, 'postbox');
    const rpsOf = (name: string) => median((accepted[name] ?? []).map((run) => run.rps));
    report.add({
      section: SECTION,
      name: 'accepted with an archive, of the same path without',
      value: `${archiveRatio.median.toFixed(2)} (${formatCount(rpsOf(ARCHIVED))} against ${formatCount(rpsOf('postbox'))} req/s)`,
      target: '-',
      verdict: 'INFO',
      detail:
        `per round ${archiveRatio.rounds.map((value) => value.toFixed(2)).join(' ')}; ${formatCount(archiveLines)} archive lines for ${formatCount(archivedAnswers)} answers 200; ` +
        'the lines of submissions that arrive while an fsync runs share the next one',
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
    // The queue answers before it sends: the answer rate above can outrun the mail server for a while. This is
    // the rate at which mail actually arrives, from the start of a run until its last mail (the backlog drained).
    const rateOf = (name: string) => (endToEnd[name] ? endToEnd[name].submissions / Math.max(0.001, endToEnd[name].seconds) : 0);
    const deliveredRatio = rateOf('postbox') / Math.max(0.001, rateOf('nodemailer'));
    report.add({
      section: SECTION,
      name: 'accepted submissions delivered end to end (both mails received)',
      value: `${deliveredRatio.toFixed(2)} x nodemailer`,
      target: `>= ${ACCEPTED_MINIMUM.toFixed(2)}`,
      verdict: deliveredRatio >= ACCEPTED_MINIMUM ? 'PASS' : 'FAIL',
      detail: `postbox ${formatCount(rateOf('postbox'))} submissions/s | nodemailer ${formatCount(rateOf('nodemailer'))} submissions/s, counted from the start of each run to the last mail it caused`,
    });
    const perSubmission = queueCost.fsyncs / Math.max(1, queueCost.submissions);
    report.add({
      section: SECTION,
      name: 'queue fsyncs per accepted submission',
      value: perSubmission.toFixed(2),
      target: '< 2 (group commit)',
      verdict: queueCost.submissions > 0 && perSubmission < 2 ? 'PASS' : 'FAIL',
      detail: `${formatCount(queueCost.fsyncs)} fsyncs for ${formatCount(queueCost.submissions)} submissions of 2 messages each; one queue write (2 fsyncs: the file, then its folder) holds every message queued while the previous write ran, so without group commit it would be 2 per submission`,
    });
  } finally {
    await rejecting?.stop();
    await mailing?.stop();
    await archived?.stop();
    await postbox?.stop();
    await sink?.stop();
  }
}

interface Completed {
  completed: number;
  failed: number;
  /** postbox only: the queue's fsync calls so far. */
  fsyncs?: number;
}

/**
 * Wraps a contender so that each of its runs is bracketed by a mail check (before: snapshot; after: compare), and
 * `onRun` sees each run's result.
 */
function withMailCheck(contender: Contender, start: () => Promise<() => Promise<void>>, onRun?: (result: LoadResult) => void): Contender {
  let finish: (() => Promise<void>) | undefined;
  return {
    ...contender,
    beforeRun: async () => {
      finish = await start();
    },
    afterRun: async (result) => {
      onRun?.(result);
      await finish?.();
    },
  };
}

/** The forms config `file` with an archive on its form and a sender of its own; returns the file's path. */
function withArchive(file: string): string {
  const config = parse(readFileSync(file, 'utf8')) as { mail: { from: string }; forms: Array<Record<string, unknown>> };
  config.mail.from = `Bench Forms <${ARCHIVED_SENDER}>`;
  for (const form of config.forms) form.archive = ARCHIVE_FILE;
  writeFileSync(file, stringify(config));
  return file;
}

async function post(base: string, body: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = await fetch(base + FORM_PATH, { method: 'POST', headers, body });
  return { status: response.status, headers: replayableHeaders(response.headers), body: await response.text() };
}

/** postbox's own counters (docs/forms-api.md "/metrics"): owner mails the server accepted, failures, queue fsyncs. */
async function postboxCompleted(base: string): Promise<Completed> {
  const metrics = (await (await fetch(`${base}/metrics`)).json()) as { totals: Record<string, number>; queue?: { fsyncs: number } };
  const totals = metrics.totals;
  return { completed: totals.sent ?? 0, failed: (totals.send_failed ?? 0) + (totals.auto_reply_failed ?? 0), fsyncs: metrics.queue?.fsyncs };
}

async function referenceCompleted(base: string): Promise<Completed> {
  return (await (await fetch(`${base}/stats`)).json()) as Completed;
}

/** Whether postbox's queue is empty (docs/delivery.md "/metrics"). */
async function queueDrained(base: string): Promise<boolean> {
  const metrics = (await (await fetch(`${base}/metrics`)).json()) as { queue?: { pending: number } };
  return (metrics.queue?.pending ?? 0) === 0;
}

/**
 * Waits until the sink's count has not moved for 500 ms (in-flight and queued deliveries finish after the load
 * stops); `lastChangeAt` is when it last moved, or when the wait began if it never did.
 */
async function settle(child: ChildProcess, sender: string, drained: () => Promise<boolean>): Promise<SinkCounts & { lastChangeAt: number }> {
  let last = await sinkCounts(child, sender);
  let stableSince = performance.now();
  // Two minutes: a message that failed for now is tried again after about a minute.
  const deadline = performance.now() + 120_000;
  while ((performance.now() - stableSince < 500 || !(await drained())) && performance.now() < deadline) {
    await delay(100);
    const now = await sinkCounts(child, sender);
    if (now.messages !== last.messages) stableSince = performance.now();
    last = now;
  }
  return { ...last, lastChangeAt: stableSince };
}
