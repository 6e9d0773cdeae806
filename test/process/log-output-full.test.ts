// `postbox serve` whose stdout cannot be written (here /dev/full: every write fails with ENOSPC, as on a full
// disk): the service starts and answers all the same, says once on stderr that log lines are dropped, and stops
// cleanly. A log that cannot be written must not take the service down.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from '../support/postbox-process.js';
import { findFreePort } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

describe('postbox serve with a stdout that cannot be written', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  before(async () => {
    temp = await createTempDir('log-output-full');
  });
  after(async () => {
    await temp.remove();
  });

  it('serves, says once on stderr that log lines are dropped, and stops with 0', async () => {
    assert.ok(existsSync('/dev/full'), 'this test needs /dev/full (Linux)');
    assertCliBuilt();
    const contentDir = path.join(temp.dir, 'posts');
    await mkdir(contentDir);
    const port = await findFreePort();
    const file = await writeConfigFile(temp.dir, {
      data_dir: path.join(temp.dir, 'data'),
      site: { title: 'Blog', base_url: 'https://example.com' },
      blog: { listen: `127.0.0.1:${port}`, content_dir: contentDir },
    });
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [CLI_PATH, 'serve', '--config', file], { cwd: REPO_ROOT, stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}/api/blog/posts`;
      const first = await waitFor('the blog to answer', () => fetch(url).then((response) => response.status, () => undefined));
      assert.equal(first, 200);
      for (let i = 0; i < 5; i++) assert.equal((await fetch(url)).status, 200);
      // The request lines of these answers are written (and fail) within a batch's 20 ms.
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
    const notices = stderr.split('\n').filter((line) => line.includes('log lines cannot be written to stdout'));
    assert.deepEqual(notices, ['postbox: log lines cannot be written to stdout (ENOSPC); they are dropped until it works again']);
  });
});
