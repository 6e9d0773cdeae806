// A webmention answered 202 by a real `postbox serve` (dist/cli.js) that is SIGKILLed before it verified it: the
// next process on the same data_dir finds it pending in data_dir/comments/webmentions/ and verifies it
// (docs/comments.md "Receiving").
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { writeConfigFile } from '../support/config.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const TARGET = 'https://blog.example.com/blog/hello';

describe('a webmention across a crash', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is verified by the next process when the first one was killed before verifying it', async () => {
    const temp = await createTempDir('webmention-restart');
    cleanups.push(temp.remove);
    await mkdir(path.join(temp.dir, 'posts'));
    await writeFile(path.join(temp.dir, 'posts', 'hello.md'), '---\ntitle: Hello\ndate: 2024-04-01\n---\nHello there.\n');
    // The source holds the first fetch unanswered (the first process dies meanwhile), and answers the next ones.
    const held: ServerResponse[] = [];
    const site = await listenOnLoopback(
      createServer((_request, response) => {
        if (held.length === 0) held.push(response);
        else response.writeHead(200, { 'content-type': 'text/html' }).end(`<article class="h-entry"><a class="p-author h-card" href="/">Grace</a><p class="e-content">Yes: <a class="u-in-reply-to" href="${TARGET}">this</a>.</p></article>`);
      }),
    );
    cleanups.push(() => site.close());
    cleanups.push(async () => held.forEach((response) => response.destroy()));
    const configFile = await writeConfigFile(temp.dir, {
      data_dir: path.join(temp.dir, 'data'),
      site: { title: 'Blog', base_url: 'https://blog.example.com' },
      blog: { listen: '127.0.0.1:0', content_dir: path.join(temp.dir, 'posts'), comments: { enabled: true, moderation: 'none', webmention_private_sources: true } },
    });
    const serve = async (): Promise<ServeProcess> => {
      const started = await startPostboxServe(configFile, ['blog']);
      cleanups.push(() => started.stop('SIGKILL'));
      return started;
    };

    const first = await serve();
    const answer = await fetch(`${first.addresses.blog}/webmention`, { method: 'POST', body: new URLSearchParams({ source: `http://127.0.0.1:${site.port}/reply`, target: TARGET }) });
    assert.equal(answer.status, 202);
    const status = new URL(answer.headers.get('location')!).pathname;
    await waitFor('the first fetch of the source', () => (held.length > 0 ? true : undefined));
    await first.stop('SIGKILL');

    const second = await serve();
    const settled = await waitFor('the webmention verified', async () => {
      const read = (await (await fetch(`${second.addresses.blog}${status}`)).json()) as { status: string };
      return read.status === 'pending' ? undefined : read;
    }, 10_000);
    assert.deepEqual(settled, { status: 'accepted' });
    const thread = (await (await fetch(`${second.addresses.blog}/api/blog/posts/hello/comments`)).json()) as { comments: Array<{ kind: string; author: { name: string } }> };
    assert.deepEqual(thread.comments.map((comment) => [comment.kind, comment.author.name]), [['reply', 'Grace']]);
  });
});
