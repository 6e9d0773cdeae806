// dist/cli.js starts Node.js with the engine flags Postbox runs best with (docs/performance.md "Runtime ratios of
// the blog and the rejected submission"), so that nobody has to pass them: `postbox serve` or `./dist/cli.js serve`
// is run with `--no-memory-reducer` by the file's first line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../support/postbox-process.js';

describe('dist/cli.js run as a program', () => {
  it('runs under node with --no-memory-reducer', async () => {
    // hash-password waits for its input: the process is there to be looked at.
    const child = spawn(path.join(REPO_ROOT, 'dist', 'cli.js'), ['hash-password'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      await once(child, 'spawn');
      // env(1) execs node in the same process: wait until the command line is node's. env's own names cli.js too
      // (`env -S node --no-memory-reducer .../cli.js`), so it is the program's name that tells them apart.
      const isNode = (argv: string[]) => /^node/.test(path.basename(argv[0] ?? ''));
      let argv: string[] = [];
      for (const deadline = Date.now() + 10_000; !isNode(argv) && Date.now() < deadline; ) {
        argv = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
        if (!isNode(argv)) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.match(path.basename(argv[0] ?? ''), /^node/);
      assert.ok(argv.includes('--no-memory-reducer'), `started as ${argv.join(' ')}`);
    } finally {
      child.kill();
    }
  });
});
