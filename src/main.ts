#!/usr/bin/env -S node --no-memory-reducer
// `postbox serve`, `check [--send-test-mail]`, `queue`, `subscribers`, `newsletter`, `bounces`, `users`, `comments`, `hash-password` and `--version`
// (README.md "Running it for your site"): the only code that reads argv and the environment.
import { parseArgs } from 'node:util';
import type { Config } from './config/config.js';
import { describeConfig } from './cli/check-summary.js';
import { loadConfigFile, type ConfigProblem } from './config/load.js';
import { parseMailboxes } from './config/mail-addresses.js';
import { ListenError } from './http/http-server.js';
import { createRequestLog } from './http/request-log.js';
import { createLogger, createSilentLogger, createStdoutLogOutput } from './kit/log.js';
import type { Backend } from './adapters/backend.js';
import { openBackend } from './app/open-backend.js';
import { sendTestMail } from './adapters/mail/test-mail.js';
import { failureSite, safeReason } from './kit/safe-reason.js';
import { parseQueueCommand, QUEUE_USAGE, runQueueCommand } from './cli/queue.js';
import { parseSubscribersCommand, runSubscribersCommand, SUBSCRIBERS_USAGE } from './cli/subscribers.js';
import { NEWSLETTER_USAGE, parseNewsletterCommand, runNewsletterCommand } from './cli/newsletter.js';
import { readNewPassword, runHashPassword } from './cli/hash-password.js';
import { parseUsersCommand, runUsersCommand, USERS_USAGE } from './cli/users.js';
import { COMMENTS_USAGE, parseCommentsCommand, runCommentsCommand } from './cli/comments.js';
import { MIGRATE_USAGE, parseMigrateCommand, runMigrateCommand } from './cli/migrate.js';
import { BOUNCES_LIST_USAGE, parseBouncesListCommand, runBouncesListCommand } from './cli/bounces-list.js';
import { BOUNCES_USAGE, parseBouncesCommand, processBouncesIo, runBouncesCommand } from './cli/bounces.js';
import { startServices, type RunningServices } from './cli/serve.js';
import { VERSION } from './version.js';

const USAGE = `Usage:
  postbox serve [--config FILE]   start the forms service ([[forms]]) and/or the blog service ([blog])
  postbox check [--config FILE]   validate the configuration and print a summary
  postbox check --send-test-mail [--to ADDRESS] [--config FILE]
                                  also send one test mail now, to ADDRESS or to mail.to
${QUEUE_USAGE}${SUBSCRIBERS_USAGE}${NEWSLETTER_USAGE}${BOUNCES_LIST_USAGE}${BOUNCES_USAGE}${MIGRATE_USAGE}${USERS_USAGE}${COMMENTS_USAGE}  postbox hash-password           read a password (12 characters or more) and print its
                                  password_hash for [admin] users
  postbox version                 print the version

Options:
  -c, --config FILE   configuration file (default ./config.toml)
      --send-test-mail
                      (check) send a test mail through the configured transport; exit 1 if it fails
      --to ADDRESS    (check --send-test-mail) where the test mail goes (default mail.to)
      --all-failed    (queue retry) every failed message
      --form PATH     (subscribers export, newsletter send) the newsletter form
      --list ID       (subscribers export, newsletter send) a newsletter list, instead of a form
      --format F      (subscribers export) csv (default) or json; (bounces list) text (default) or json
      --segment ID    (newsletter send) a segment of a form's subscribers, instead of --form
      --post SLUG     (newsletter send) the published post to send
      --lang LANG     (newsletter send) its language version (default: the primary one)
      --test ADDRESS  (newsletter send) send one mail to ADDRESS now instead, to see it
      --dry-run       (newsletter send) say what would be sent, send nothing
      --resend        (newsletter send) send a post that was sent to the form before
      --from-files    (migrate) copy the records of data_dir into PostgreSQL
      --role ROLE     (users add) owner, editor or author
      --email ADDRESS (users add) the user's mail address
      --from FORMAT   (comments import) disqus, wordpress or remark42
  -h, --help          show this help
      --version       print the version
`;

const OPTIONS = {
  config: { type: 'string', short: 'c', default: './config.toml' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
  'send-test-mail': { type: 'boolean', default: false },
  to: { type: 'string' },
  'all-failed': { type: 'boolean', default: false },
  form: { type: 'string' },
  list: { type: 'string' },
  format: { type: 'string' },
  post: { type: 'string' },
  lang: { type: 'string' },
  test: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  resend: { type: 'boolean', default: false },
  'from-files': { type: 'boolean', default: false },
  role: { type: 'string' },
  email: { type: 'string' },
  segment: { type: 'string' },
  from: { type: 'string' },
} as const;

/** The options as parseArgs gives them. */
type OptionValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    process.stderr.write(`postbox: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.values.version || (command === 'version' && rest.length === 0)) {
    process.stdout.write(`postbox ${VERSION}\n`);
    return 0;
  }
  if (command === 'hash-password' && rest.length === 0) {
    return runHashPassword({ input: process.stdin, out: (text) => process.stdout.write(text), error: (text) => process.stderr.write(text) });
  }
  const takesArguments = command === 'queue' || command === 'subscribers' || command === 'newsletter' || command === 'migrate' || command === 'users' || command === 'bounces' || command === 'comments';
  if ((command !== 'serve' && command !== 'check' && !takesArguments) || (!takesArguments && rest.length > 0)) {
    process.stderr.write(`${command ? `postbox: unknown command "${[command, ...rest].join(' ')}"\n\n` : ''}${USAGE}`);
    return 2;
  }
  const wantsTestMail = parsed.values['send-test-mail'] === true;
  const to = parsed.values.to;
  const misuse = optionProblem(command, parsed.values) ?? usageProblem(command, wantsTestMail, to) ?? addressProblem('--test', parsed.values.test);
  if (misuse) {
    process.stderr.write(`postbox: ${misuse}\n`);
    return 2;
  }
  // `bounces classify` reads only the mail files it names: it needs no configuration file.
  if (command === 'bounces' && rest[0] === 'classify') {
    const read = parseBouncesCommand(rest, { format: parsed.values.format });
    if ('problem' in read) {
      process.stderr.write(`postbox: ${read.problem}\n\nUsage:\n${BOUNCES_USAGE}`);
      return 2;
    }
    return runBouncesCommand(read, processBouncesIo());
  }
  // A command line that cannot run is told before any file is read (or server reached).
  const commandLine = takesArguments ? readCommandLine(command, rest, parsed.values) : undefined;
  if (commandLine && 'problem' in commandLine) {
    process.stderr.write(`postbox: ${commandLine.problem}\n\nUsage:\n${commandLine.usage}`);
    return 2;
  }
  const file = parsed.values.config;
  const loaded = await loadConfigFile(file, process.env);
  if (!loaded.ok) {
    printProblems(file, loaded.problems);
    return 1;
  }
  if (commandLine) return commandLine.run(loaded.config);
  if (command === 'check') {
    process.stdout.write(`${file}: OK\n${describeConfig(loaded.config)}`);
    return wantsTestMail ? checkMail(loaded.config, to) : 0;
  }
  return serve(loaded.config);
}

/** The options only some commands take; given to another, they would be silently ignored. */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  'all-failed': ['queue'],
  form: ['subscribers', 'newsletter'],
  list: ['subscribers', 'newsletter'],
  format: ['subscribers', 'bounces'],
  post: ['newsletter'],
  segment: ['newsletter'],
  lang: ['newsletter'],
  test: ['newsletter'],
  'dry-run': ['newsletter'],
  resend: ['newsletter'],
  'from-files': ['migrate'],
  role: ['users'],
  email: ['users'],
  from: ['comments'],
};

/** A command line of a command that takes arguments: how it runs on the configuration, or what is wrong with it. */
type CommandLine = { problem: string; usage: string } | { run(config: Config): Promise<number> };

function readCommandLine(command: 'queue' | 'subscribers' | 'newsletter' | 'migrate' | 'users' | 'bounces' | 'comments', args: readonly string[], values: OptionValues): CommandLine {
  const out = (text: string) => void process.stdout.write(text);
  const error = (text: string) => void process.stderr.write(text);
  switch (command) {
    case 'queue': {
      const read = parseQueueCommand(args, { allFailed: values['all-failed'] });
      return 'problem' in read ? { ...read, usage: QUEUE_USAGE } : { run: (config) => onBackend(config, (backend) => runQueueCommand(read, backend, { out, error, now: Date.now })) };
    }
    case 'subscribers': {
      const read = parseSubscribersCommand(args, { form: values.form, list: values.list, format: values.format });
      return 'problem' in read ? { ...read, usage: SUBSCRIBERS_USAGE } : { run: (config) => onBackend(config, (backend) => runSubscribersCommand(read, config, backend, { out, error, now: Date.now })) };
    }
    case 'newsletter': {
      const options = { form: values.form, list: values.list, segment: values.segment, post: values.post, lang: values.lang, test: values.test, dryRun: values['dry-run'], resend: values.resend };
      const read = parseNewsletterCommand(args, options);
      if ('problem' in read) return { ...read, usage: NEWSLETTER_USAGE };
      const io = {
        out,
        error,
        terminal: process.stderr.isTTY ? process.stderr : undefined,
        sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
        now: () => performance.now(),
        clock: Date.now,
      };
      return { run: (config) => onBackend(config, (backend) => runNewsletterCommand(read, config, backend, io)) };
    }
    case 'migrate': {
      const read = parseMigrateCommand(args, { fromFiles: values['from-files'] });
      return 'problem' in read ? { ...read, usage: MIGRATE_USAGE } : { run: (config) => runMigrateCommand(read, config, { out, error }) };
    }
    case 'bounces': {
      const read = parseBouncesListCommand(args, { format: values.format });
      return 'problem' in read ? { ...read, usage: BOUNCES_LIST_USAGE } : { run: (config) => onBackend(config, (backend) => runBouncesListCommand(read, backend, { out, error })) };
    }
    case 'users': {
      const read = parseUsersCommand(args, { role: values.role, email: values.email });
      if ('problem' in read) return { ...read, usage: USERS_USAGE };
      const io = { out, error, readPassword: () => readNewPassword({ input: process.stdin, error }), now: Date.now };
      return { run: (config) => onBackend(config, (backend) => runUsersCommand(read, config, backend, io)) };
    }
    case 'comments': {
      const read = parseCommentsCommand(args, { from: values.from });
      return 'problem' in read ? { ...read, usage: COMMENTS_USAGE } : { run: (config) => onBackend(config, (backend) => runCommentsCommand(read, config, backend, { out, error })) };
    }
  }
}

/** Runs a command on the backend of `config`, opened once for it and closed after. */
async function onBackend(config: Config, run: (backend: Backend) => Promise<number>): Promise<number> {
  // A command's output is its own: the backend's log lines would mix into it.
  const backend = openBackend(config, createSilentLogger());
  try {
    return await run(backend);
  } finally {
    await backend.close();
  }
}

/** An option given to a command that does not take it. */
function optionProblem(command: string, values: Record<string, unknown>): string | undefined {
  for (const [option, owners] of Object.entries(COMMAND_OPTIONS)) {
    if (values[option] !== undefined && values[option] !== false && !owners.includes(command)) {
      return `--${option} goes with ${owners.join(' or ')}: ${owners.map((owner) => `postbox ${owner} ...`).join(', ')}`;
    }
  }
  return undefined;
}

/** What is wrong with the test-mail options, before any file is read. */
function usageProblem(command: string, wantsTestMail: boolean, to: string | undefined): string | undefined {
  if (wantsTestMail && command !== 'check') return '--send-test-mail goes with check: postbox check --send-test-mail';
  if (to !== undefined && !wantsTestMail) return '--to goes with --send-test-mail';
  return addressProblem('--to', to);
}

/** What is wrong with the one mail address an option names (undefined: nothing, or no option). */
function addressProblem(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseMailboxes(value);
  if ('problem' in parsed) return `${option} ${parsed.problem}`;
  return parsed.addresses.length > 1 ? `${option} must be one address` : undefined;
}

/** `check --send-test-mail`: one mail now, to `to` or mail.to; the outcome on stdout, a failure on stderr with exit 1. */
async function checkMail(config: Config, to: string | undefined): Promise<number> {
  if (!config.mail) {
    process.stderr.write('postbox: --send-test-mail: the file has no [mail] section to send with\n');
    return 1;
  }
  const recipient = to ?? config.mail.to;
  if (recipient === undefined) {
    process.stderr.write('postbox: --send-test-mail needs an address: pass --to ADDRESS or set mail.to\n');
    return 1;
  }
  const outcome = await sendTestMail(config.mail, config.data_dir, recipient, Date.now);
  if (outcome.ok) process.stdout.write(`${outcome.report}\n`);
  else process.stderr.write(`postbox: ${outcome.report}\n`);
  return outcome.ok ? 0 : 1;
}

/** A syntax error as `file:line:column: message` (the way compilers write them), else every problem by key path. */
function printProblems(file: string, problems: ConfigProblem[]): void {
  const [first] = problems;
  if (problems.length === 1 && first?.line !== undefined) {
    process.stderr.write(`${file}:${first.line}:${first.column ?? 1}: ${first.message}\n`);
    return;
  }
  const lines = problems.map((problem) => `  ${problem.path}: ${problem.message}`);
  process.stderr.write(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${lines.join('\n')}\n`);
}

async function serve(config: Config): Promise<number> {
  const output = createStdoutLogOutput();
  const logger = createLogger(output);
  const requestLog = createRequestLog(output, logger.isLevelEnabled('info'));
  // The front doors catch every failure of a request; a promise rejected elsewhere (a timer, a watcher) is
  // logged, and the services keep serving.
  process.on('unhandledRejection', (reason) => {
    logger.error({ event: 'unhandled_rejection', reason: safeReason(reason), at: failureSite(reason) }, 'a background task failed');
  });
  let running: RunningServices;
  try {
    running = await startServices(config, { logger, requestLog });
  } catch (error) {
    // A port in use is the owner's to fix, not a failure of Postbox: one line, no stack.
    if (error instanceof ListenError) process.stderr.write(`postbox: ${error.message}\n`);
    else logger.error({ err: error }, 'start-up failed');
    return 1;
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info({ event: 'shutdown', signal }, 'stopping');
      running.stop().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Give pino's stdout a moment to drain, then leave even if a stray handle lingers.
    setTimeout(() => process.exit(code), 50).unref();
  },
  (error: unknown) => {
    process.stderr.write(`postbox: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
