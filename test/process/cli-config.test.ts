// `postbox check` and `postbox serve` on good and bad configuration files (docs/configuration.md "How the
// file is read").
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { REPO_ROOT, runPostbox, startPostboxServe } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';

const GOOD = `
data_dir = "./data"
[server]
listen = "127.0.0.1:0"
[mail]
from = "Forms <forms@example.com>"
to = "owner@example.com"
[[forms]]
path = "/contact"
type = "contact"
allowed_origins = ["https://example.com"]
archive = "contact.jsonl"
`;

const BAD = `
data_dir = "./data"
[server]
listen = "127.0.0.1:PORT"
metrics_token = "\${POSTBOX_SURELY_UNSET_VARIABLE}"
[mail]
from = "Forms <forms@example.com>"
to = "owner@example.com"
[[forms]]
path = "/contact"
type = "contact"
allowed_origins = ["*"]
[[forms]]
path = "/feedback"
type = "feedbak"
rate_limit_per_huor = 3
`;

let temp: Awaited<ReturnType<typeof createTempDir>>;
before(async () => {
  temp = await createTempDir('cli');
});
after(() => temp.remove());

describe('postbox check', () => {
  it('a good file: exit 0 and a summary naming the forms', async () => {
    const file = await writeConfigFile(temp.dir, GOOD, 'good.toml');
    const result = await runPostbox(['check', '--config', file]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /OK/);
    assert.match(result.stdout, /\/contact \(contact\)/);
    assert.match(result.stdout, /^mail: written to files under .*outbox, not sent \(transport = "file"/m);
    assert.equal(result.stderr, '');
  });

  it('a bad file: exit 1 and every problem with its key path', async () => {
    const file = await writeConfigFile(temp.dir, BAD.replace('PORT', '8080'), 'bad.toml');
    const env = { ...process.env };
    delete env.POSTBOX_SURELY_UNSET_VARIABLE;
    const substitution = await runPostbox(['check', '--config', file], { env });
    assert.equal(substitution.code, 1);
    assert.match(substitution.stderr, /server\.metrics_token: environment variable POSTBOX_SURELY_UNSET_VARIABLE is not set/);

    const schema = await runPostbox(['check', '--config', file], { env: { ...env, POSTBOX_SURELY_UNSET_VARIABLE: 'x' } });
    assert.equal(schema.code, 1);
    for (const keyPath of ['forms[0].allowed_origins[0]', 'forms[1].type']) {
      assert.ok(schema.stderr.includes(`  ${keyPath}:`), `${keyPath} in:\n${schema.stderr}`);
    }
    assert.ok(schema.stderr.includes('  forms[1].rate_limit_per_huor: unknown key (did you mean rate_limit_per_hour?)\n'), schema.stderr);
  });

  it('a TOML syntax error: exit 1 and one line with the file, line and column', async () => {
    const file = await writeConfigFile(temp.dir, GOOD.replace('[server]', '[server'), 'syntax.toml');
    const result = await runPostbox(['check', '--config', file]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, `${file}:3:8: invalid TOML: illegal character in key\n`);
    assert.equal(result.stdout, '');
  });

  it('a missing file: exit 1 naming it', async () => {
    const result = await runPostbox(['check', '--config', `${temp.dir}/nope.toml`]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nope\.toml/);
  });
});

describe('postbox serve with a bad config', () => {
  it('exits 1, prints the key paths, and never listens', async () => {
    const file = await writeConfigFile(temp.dir, BAD.replace('PORT', '8080'), 'bad.toml');
    const result = await runPostbox(['serve', '--config', file], { env: { ...process.env, POSTBOX_SURELY_UNSET_VARIABLE: 'x' } });
    assert.equal(result.code, 1);
    assert.ok(result.stderr.includes('  forms[1].type:'), result.stderr);
    assert.doesNotMatch(result.stdout, /"event":"listening"/);
  });
});

describe('postbox serve with the file transport', () => {
  it('logs one warning at start that mail is written to files, not sent; none with [mail.smtp]', async () => {
    const file = await writeConfigFile(temp.dir, GOOD, 'file-transport.toml');
    const serving = await startPostboxServe(file);
    await serving.stop();
    const warnings = serving.logs.filter((line) => (line.level as number) >= 40);
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0]!.event, 'mail_not_sent');
    assert.match(String(warnings[0]!.msg), /^mail is written to files under .*outbox, not sent/);

    // A closed port: the pool connects only when a mail is sent.
    const smtp = await writeConfigFile(temp.dir, `${GOOD.replace('[[forms]]', '[mail.smtp]\nhost = "127.0.0.1"\nport = 9\n[[forms]]')}`, 'smtp.toml');
    const sending = await startPostboxServe(smtp);
    await sending.stop();
    assert.deepEqual(sending.logs.filter((line) => (line.level as number) >= 40), []);
  });
});

describe('postbox --version', () => {
  it('prints the version of package.json, as --version and as the version command', async () => {
    const { version } = JSON.parse(await readFile(`${REPO_ROOT}package.json`, 'utf8')) as { version: string };
    assert.match(version, /^\d+\.\d+\.\d+/);
    for (const args of [['--version'], ['version'], ['check', '--version']]) {
      const result = await runPostbox(args);
      assert.deepEqual({ code: result.code, stdout: result.stdout, stderr: result.stderr }, { code: 0, stdout: `postbox ${version}\n`, stderr: '' }, args.join(' '));
    }
  });
});

describe('postbox --help', () => {
  it('lists every command, and [--config FILE] on each that reads the file', async () => {
    const result = await runPostbox(['--help']);
    assert.equal(result.code, 0);
    // A usage entry runs from its "  postbox " line to the next; its description is the indented text after it.
    const entries = result.stdout.split(/\n(?=  postbox )/u).filter((entry) => entry.trimStart().startsWith('postbox '));
    // The command is the usage's first words in lower case; the usage ends where two spaces start its description.
    const commands = entries.map((entry) => entry.trim().split(/\s{2,}/u)[0]!.split(' ').slice(1, 3).filter((word) => /^[a-z-]+$/u.test(word)).join(' '));
    for (const command of ['serve', 'check', 'queue list', 'queue retry', 'queue drop', 'subscribers export', 'newsletter send', 'newsletter list', 'migrate', 'bounces classify', 'bounces list', 'bounces remove', 'hash-password', 'version']) {
      assert.ok(commands.includes(command), `${command} in ${commands.join(', ')}`);
    }
    // Classifying saved mails reads no records, so it needs no configuration.
    const withoutFile = new Set(['hash-password', 'version', 'bounces classify']);
    for (const [i, entry] of entries.entries()) {
      if (!withoutFile.has(commands[i]!)) assert.match(entry, /\[--config FILE\]/u, entry);
    }
  });
});

describe('usage errors of the commands that take arguments', () => {
  it('exit 2 and say what is wrong before the usage, before the configuration file is read', async () => {
    // No such file: a command line that cannot run is told first.
    const file = path.join(temp.dir, 'none.toml');
    const cases: Array<[string[], string]> = [
      [['newsletter', 'send'], 'newsletter send needs one of --form PATH, --list ID or --segment ID, and --post SLUG'],
      [['newsletter', 'send', '--form', '/news', '--post', 'a', '--test', 'me@example.com', '--dry-run'], '--test and --dry-run do not go together'],
      [['newsletter', 'list', '--form', '/news'], 'newsletter list takes no options but --config'],
      [['newsletter', 'sent'], 'unknown newsletter command "sent"'],
      [['queue', 'retry'], 'queue retry takes one message ID or --all-failed'],
      [['queue', 'drop', '--all-failed'], 'queue drop takes one message ID'],
      [['queue'], 'queue needs list, retry or drop'],
      [['subscribers', 'export'], 'subscribers export needs --form PATH or --list ID'],
      [['subscribers', 'export', '--form', '/news', '--format', 'xml'], '--format is csv or json, not "xml"'],
      [['subscribers'], 'subscribers takes one command: export, tag or import'],
      [['migrate', 'now'], 'migrate takes no arguments, not "now"'],
    ];
    for (const [args, reason] of cases) {
      const result = await runPostbox([...args, '--config', file]);
      assert.equal(result.code, 2, args.join(' '));
      assert.ok(result.stderr.startsWith(`postbox: ${reason}\n\nUsage:\n  postbox ${args[0]} `), `${args.join(' ')}: ${result.stderr}`);
    }
  });
});
