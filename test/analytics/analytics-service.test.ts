// [analytics] on a running blog listener (docs/analytics.md), over real sockets from several loopback addresses: a
// burst of beacons counted exactly, bots and prefetches left out, conversions from the forms service, no cookie set,
// /a.js under 1 kB gzipped, and no address or user agent written to data_dir or the logs. The counts are read after
// a graceful stop: what was answered is written by then.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { composeServices } from '../../src/app/compose.js';
import type { RunningServer } from '../../src/http/http-server.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type ServiceDriver } from '../support/http.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';

const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];
/** Each in a /24 of its own: 4 networks times 3 agents are 12 visitors. */
const ADDRESSES = ['127.0.11.1', '127.0.12.1', '127.0.13.1', '127.0.14.1'];
const PER_CLIENT = 60;
const RATE_LIMITED_ADDRESS = '127.0.15.1';
const PER_HOUR = 300;

/** POSTs a beacon from `localAddress`; resolves with the status and the headers. */
function beacon(server: RunningServer, agent: http.Agent, localAddress: string, body: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.address}/api/analytics/event`, { method: 'POST', agent, localAddress, headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('analytics on the blog listener', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let logs: LogCapture;
  let blog: ServiceDriver;
  let forms: ServiceDriver;
  let server: RunningServer;
  let close: () => Promise<void>;
  const cookies: unknown[] = [];

  before(async () => {
    ({ dir, remove: removeDir } = await createTempDir('analytics-service'));
    await mkdir(path.join(dir, 'posts'));
    const config = loadTestConfig(
      {
        data_dir: 'data',
        site: { title: 'Blog', base_url: 'https://example.com' },
        blog: { listen: '127.0.0.1:0', content_dir: 'posts' },
        analytics: { enabled: true, rate_limit_per_hour: PER_HOUR },
        server: { listen: '127.0.0.1:0' },
        mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', transport: 'file', queue: false },
        forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], receipt: false }],
      },
      dir,
    );
    logs = captureLogs();
    const composed = await composeServices(config, logs);
    close = composed.close;
    blog = driveService(composed.services.find((service) => service.name === 'blog')!);
    forms = driveService(composed.services.find((service) => service.name === 'forms')!);
    server = await blog.listen();
  });

  after(async () => {
    await server?.close(1_000);
    await close?.();
    await removeDir?.();
  });

  it('serves /a.js under 1 kB gzipped, sending one beacon to its own origin', async () => {
    const script = await blog.inject({ method: 'GET', url: '/a.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.ok(gzipSync(script.rawPayload).length <= 1024, `${gzipSync(script.rawPayload).length} bytes gzipped`);
    assert.match(script.body, /sendBeacon/);
    assert.match(script.body, /\/api\/analytics\/event/);
    assert.doesNotMatch(script.body, /cookie|localStorage|sessionStorage|fetch\(|XMLHttpRequest/);
    cookies.push(script.headers['set-cookie']);
  });

  it('counts a burst from several addresses and agents, but neither bots nor prefetches, and limits each address', async () => {
    const sends: Array<Promise<http.IncomingMessage>> = [];
    for (const address of ADDRESSES) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      for (let i = 0; i < PER_CLIENT; i++) {
        const body = JSON.stringify({ path: i % 2 ? '/blog/a' : '/pricing', referrer: i % 3 ? '' : 'https://news.example/item', width: 390 });
        sends.push(beacon(server, agent, address, body, { 'user-agent': AGENTS[i % AGENTS.length]! }));
      }
      // Not counted: a crawler, and a page loaded ahead of a click.
      sends.push(beacon(server, agent, address, '{"path":"/pricing"}', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }));
      sends.push(beacon(server, agent, address, '{"path":"/pricing"}', { 'user-agent': AGENTS[0]!, 'sec-purpose': 'prefetch' }));
    }
    const answers = await Promise.all(sends);
    assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([204]));
    cookies.push(...answers.map((answer) => answer.headers['set-cookie']));

    // A burst from one address, past its hourly limit: exactly the limit is taken, the rest answered 429.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const burst = await Promise.all(Array.from({ length: PER_HOUR + 20 }, () => beacon(server, agent, RATE_LIMITED_ADDRESS, '{"path":"/limited"}', { 'user-agent': AGENTS[0]! })));
    const statuses = burst.map((answer) => answer.statusCode!);
    assert.equal(statuses.filter((status) => status === 204).length, PER_HOUR);
    assert.equal(statuses.filter((status) => status === 429).length, 20);
  });

  it('describes both routes in the blog\'s /openapi.json', async () => {
    const paths = (await blog.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
    assert.ok(paths['/a.js'].get && paths['/api/analytics/event'].post);
  });

  it('refuses what is not a beacon', async () => {
    const answer = await blog.inject({ method: 'POST', url: '/api/analytics/event', payload: '{"path":"https://elsewhere.example/"}' });
    assert.equal(answer.statusCode, 400);
  });

  it('counts an accepted submission as a conversion of the page it came from, without keeping _page', async () => {
    const post = (payload: string, referer: string) =>
      forms.inject({ method: 'POST', url: '/contact', payload, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://example.com', referer } });
    const fields = 'name=Ada+Lovelace&email=ada%40example.com&message=Hello+there%2C+a+question.';
    assert.equal((await post(fields, 'https://example.com/pricing')).statusCode, 200);
    assert.equal((await post(`${fields}&_page=%2Fblog%2Fa`, 'https://example.com/')).statusCode, 200);
  });

  it('writes the counts by the stop, with no address, user agent or cookie anywhere', async () => {
    await server.close(1_000);
    await close();
    const folder = path.join(dir, 'data', 'analytics');
    const [file] = await readdir(folder);
    const day = JSON.parse(await readFile(path.join(folder, file!), 'utf8'));
    assert.deepEqual(day.views, { '/pricing': ADDRESSES.length * (PER_CLIENT / 2), '/blog/a': ADDRESSES.length * (PER_CLIENT / 2), '/limited': PER_HOUR });
    assert.equal(day.referrers['news.example'], ADDRESSES.length * (PER_CLIENT / 3));
    assert.equal(day.visitors, ADDRESSES.length * AGENTS.length + 1);
    assert.deepEqual(day.conversions, { '/contact': { '/pricing': 1, '/blog/a': 1 } });

    const written = [await readAll(path.join(dir, 'data')), logs.text()].join('\n');
    for (const secret of [...ADDRESSES, RATE_LIMITED_ADDRESS, '127.0.11', ...AGENTS, 'Firefox', '_page']) assert.ok(!written.includes(secret), `${secret} was written`);
    const eventLines = logs.lines().filter((line) => line.path === '/api/analytics/event');
    assert.ok(eventLines.length > 0);
    assert.ok(eventLines.every((line) => !('ip' in line)));
    assert.deepEqual(cookies.filter((value) => value !== undefined), []);
  });
});

/** Every file under `folder`, as text. */
async function readAll(folder: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) texts.push(await readFile(path.join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts.join('\n');
}
