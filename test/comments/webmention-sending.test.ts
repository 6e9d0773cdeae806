// Webmentions sent for the blog's posts (docs/comments.md "Sending") by `serve` as composed, to a receiver on
// loopback whose endpoint is found by discovery: through the mail queue, one per (post, target, change), kept
// across restarts and between two replicas on one PostgreSQL, a temporary failure retried by the queue.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { createTestClock, HOUR_MS } from '../support/clock.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startPostgresServer } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A site whose /article names its endpoint in a Link header, /note in a <link>, /plain none; POSTs are recorded. */
async function startReceiver(): Promise<{ origin: string; received: Array<Record<string, string>>; fetched: string[] }> {
  const received: Array<Record<string, string>> = [];
  const fetched: string[] = [];
  const server = await listenOnLoopback(
    createServer((request, response) => {
      if (request.method === 'POST') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          received.push({ path: request.url ?? '', ...Object.fromEntries(new URLSearchParams(body)) });
          response.writeHead(202).end();
        });
        return;
      }
      fetched.push(request.url ?? '');
      if (request.url === '/article') response.writeHead(200, { 'content-type': 'text/html', link: '<https://elsewhere.example/x>; rel="other", </endpoint?from=header>; rel="webmention"' }).end('<p>An article</p>');
      else if (request.url === '/note') response.writeHead(200, { 'content-type': 'text/html' }).end('<head><link rel="webmention" href="endpoint?from=link"></head><p>A note</p>');
      else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>No endpoint here</p>');
    }),
  );
  cleanups.push(() => server.close());
  return { origin: `http://127.0.0.1:${server.port}`, received, fetched };
}

/** Waits until `condition` holds, asking at most 250 times, 20 ms apart. */
async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 250 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(condition(), 'the condition never held');
}

describe('webmentions sent', () => {
  it('sends one webmention per external link with an endpoint, none again after a restart, and one more per change', async () => {
    const receiver = await startReceiver();
    const { dir, remove } = await createTempDir('webmention-send');
    cleanups.push(remove);
    await mkdir(path.join(dir, 'posts'), { recursive: true });
    const postFile = path.join(dir, 'posts', 'hello.md');
    const text = `See [an article](${receiver.origin}/article), [a note](${receiver.origin}/note#part), [a plain page](${receiver.origin}/plain) and [another post](https://blog.example.com/blog/other).`;
    await writeFile(postFile, `---\ntitle: Hello\ndate: 2024-04-01\n---\n${text}\n`);
    const config = loadTestConfig(
      {
        data_dir: 'data',
        site: { title: 'Blog', base_url: 'https://blog.example.com' },
        blog: { listen: '127.0.0.1:0', content_dir: 'posts', comments: { enabled: true, webmention_private_sources: true } },
        // Webmentions leave through the mail queue (written to files here: nothing is mailed).
        mail: { from: 'Blog <blog@example.com>', to: 'owner@example.com' },
      },
      dir,
    );
    const serve = async () => composeServices(config, { ...captureLogs(), clock: createTestClock() });

    const first = await serve();
    await until(() => receiver.received.length >= 2);
    await first.close();
    const source = 'https://blog.example.com/blog/hello';
    assert.deepEqual(
      receiver.received.sort((a, b) => (a.path! < b.path! ? -1 : 1)),
      [
        { path: '/endpoint?from=header', source, target: `${receiver.origin}/article` },
        { path: '/endpoint?from=link', source, target: `${receiver.origin}/note` },
      ],
    );
    assert.ok(receiver.fetched.includes('/plain'));

    const fetchedBefore = receiver.fetched.length;
    await (await serve()).close();
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.fetched.length, fetchedBefore);

    await writeFile(postFile, `---\ntitle: Hello\ndate: 2024-04-01\n---\n${text}\n\nUpdated: [the article](${receiver.origin}/article) still.\n`);
    const third = await serve();
    await until(() => receiver.received.length >= 4);
    await third.close();
    assert.equal(receiver.received.length, 4);
  });
});

describe('webmentions sent by two replicas on PostgreSQL', () => {
  it('sends each one once between them, through the queue, retried after a temporary failure', async () => {
    const postgres = await startPostgresServer();
    cleanups.push(() => postgres.close());
    // The endpoint answers 503 to the first POST of each target, 202 to the next ones.
    const posts: Array<{ target: string; status: number }> = [];
    const server = await listenOnLoopback(
      createServer((request, response) => {
        if (request.method !== 'POST') return response.writeHead(200, { 'content-type': 'text/html', link: '</endpoint>; rel="webmention"' }).end('<p>A page</p>');
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          const target = new URLSearchParams(body).get('target')!;
          const status = posts.some((post) => post.target === target) ? 202 : 503;
          posts.push({ target, status });
          response.writeHead(status).end();
        });
      }),
    );
    cleanups.push(() => server.close());
    const origin = `http://127.0.0.1:${server.port}`;
    const { dir, remove } = await createTempDir('webmention-send-replicas');
    cleanups.push(remove);
    await mkdir(path.join(dir, 'posts'), { recursive: true });
    await writeFile(path.join(dir, 'posts', 'hello.md'), `---\ntitle: Hello\ndate: 2024-04-01\n---\nSee [one](${origin}/one) and [two](${origin}/two).\n`);
    const url = await postgres.createDatabase('webmention_send');
    const replicas = await Promise.all(
      ['a', 'b'].map((name) =>
        composeServices(
          loadTestConfig(
            {
              data_dir: `data-${name}`,
              site: { title: 'Blog', base_url: 'https://blog.example.com' },
              blog: { listen: '127.0.0.1:0', content_dir: 'posts', comments: { enabled: true, webmention_private_sources: true } },
              mail: { from: 'Blog <blog@example.com>', to: 'owner@example.com' },
              state: { backend: 'postgres', url },
            },
            dir,
          ),
          { ...captureLogs(), clock: createTestClock(), queue: { policy: { firstDelayMs: 20, maxDelayMs: 100, maxAgeMs: HOUR_MS } } },
        ),
      ),
    );
    await until(() => posts.filter((post) => post.status === 202).length >= 2);
    for (const replica of replicas) await replica.close();
    const accepted = posts.filter((post) => post.status === 202).map((post) => post.target).sort();
    assert.deepEqual(accepted, [`${origin}/one`, `${origin}/two`]);
    assert.equal(posts.length, 4);
  });
});
