// `postbox hash-password` as a real process, the password piped through stdin.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { parsePasswordHash, verifyPassword } from '../../src/kit/password-hash.js';
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from '../support/postbox-process.js';

async function hashPasswordProcess(stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, 'hash-password'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(stdin);
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(killer);
  return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

describe('postbox hash-password', () => {
  it('prints an scrypt hash of the first stdin line that verifies that password and no other', async () => {
    const result = await hashPasswordProcess('correct horse battery\nsecond line\n');
    assert.equal(result.code, 0, result.stderr);
    const line = result.stdout.trim();
    assert.match(line, /^scrypt\$N=131072,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    const parsed = parsePasswordHash(line);
    assert.ok(!('problem' in parsed));
    assert.equal(await verifyPassword(parsed, 'correct horse battery'), true);
    assert.equal(await verifyPassword(parsed, 'correct horse batter'), false);
    assert.equal(await verifyPassword(parsed, 'second line'), false);
  });

  it('gives a different salt each time', async () => {
    const [first, second] = await Promise.all([hashPasswordProcess('correct horse battery\n'), hashPasswordProcess('correct horse battery\n')]);
    assert.notEqual(first.stdout, second.stdout);
  });

  it('refuses a password under 12 characters, and an empty stdin, printing no hash', async () => {
    const short = await hashPasswordProcess('eleven char\n');
    assert.equal(short.code, 1);
    assert.equal(short.stdout, '');
    assert.match(short.stderr, /at least 12 characters/);
    const empty = await hashPasswordProcess('');
    assert.equal(empty.code, 1);
    assert.equal(empty.stdout, '');
    assert.match(empty.stderr, /no password given/);
  });
});
