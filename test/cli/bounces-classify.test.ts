// `postbox bounces classify FILE...` (src/cli/bounces.ts) run as the command itself, through src/main.ts: one JSON
// line per file in the order given, null for what a mail does not name, a file that cannot be read told on its own
// line with exit 1 once the others were classified, no configuration file needed, and a misuse told before
// anything is read.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx as an absolute URL: the command runs in a folder of its own, where `--import tsx` would not be found. */
const TSX = import.meta.resolve('tsx');
const CORPUS = path.join(ROOT, 'test/fixtures/bounces');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Runs `postbox ...args` from the sources in `cwd` (a folder with no config.toml). */
function postbox(args: string[], cwd: string): Promise<{ code: number | null; out: string; error: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src/main.ts'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let error = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (error += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, error }));
  });
}

describe('postbox bounces classify', () => {
  it('prints one JSON line per file, in order, with kind, recipient and status (null when unknown), without a config file', async () => {
    const temp = await createTempDir('bounces-classify');
    cleanups.push(temp.remove);
    const hard = path.join(CORPUS, 'lhost-postfix-31.eml');
    const soft = path.join(CORPUS, 'lhost-exim-42.eml');
    const ordinary = path.join(temp.dir, 'note.eml');
    await writeFile(ordinary, 'From: Anna <anna@example.org>\nTo: hello@example.com\nSubject: Hello\n\nSee you on Saturday.\n');

    const result = await postbox(['bounces', 'classify', hard, soft, 'note.eml'], temp.dir);
    assert.equal(result.error, '');
    assert.equal(result.code, 0);
    const lines = result.out.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    const [first, second, third] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(Object.keys(first!), ['file', 'kind', 'recipient', 'status']);
    assert.equal(first!.file, hard);
    assert.equal(first!.kind, 'hard');
    assert.match(String(first!.recipient), /^[^@\sA-Z]+@[^@\sA-Z]+$/);
    assert.match(String(first!.status), /^5\.\d+\.\d+$/);
    assert.equal(second!.file, soft);
    assert.equal(second!.kind, 'soft');
    // The path as given, relative to where the command ran.
    assert.deepEqual(third, { file: 'note.eml', kind: 'none', recipient: null, status: null });
  });

  it('tells a file it cannot read on its own line, classifies the others, and exits 1 at the end', async () => {
    const temp = await createTempDir('bounces-classify');
    cleanups.push(temp.remove);
    const soft = path.join(CORPUS, 'lhost-exim-42.eml');
    const result = await postbox(['bounces', 'classify', 'missing.eml', soft, temp.dir], temp.dir);
    assert.equal(result.code, 1);
    const lines = result.out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines[0], { file: 'missing.eml', error: 'no such file' });
    assert.equal(lines[1]!.kind, 'soft');
    assert.deepEqual(lines[2], { file: temp.dir, error: 'is a directory' });
  });

  it('tells a misuse before reading anything, with exit 2', async () => {
    const temp = await createTempDir('bounces-classify');
    cleanups.push(temp.remove);
    const none = await postbox(['bounces', 'classify'], temp.dir);
    assert.equal(none.code, 2);
    assert.equal(none.out, '');
    assert.match(none.error, /bounces classify takes one or more mail files/);
    assert.match(none.error, /postbox bounces classify FILE\.\.\./);
    const format = await postbox(['bounces', 'classify', '--format', 'json', 'missing.eml'], temp.dir);
    assert.equal(format.code, 2);
    assert.equal(format.out, '', 'no file was read');
  });
});
