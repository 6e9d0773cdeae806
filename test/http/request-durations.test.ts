// The request-duration histogram (docs/forms-api.md "/metrics"): each request the front door answers is counted
// under its route's pattern, never its raw path, with its method and status; 404s and undecodable paths under
// "(none)"; one histogram for both listeners of `postbox serve`, shown by the forms service's /metrics.
import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import inject from 'light-my-request';
import { composeServices } from '../../src/app/compose.js';
import { createFrontDoor } from '../../src/http/front-door.js';
import { createRequestDurations, type RequestDurations } from '../../src/http/request-durations.js';
import { loadTestConfig } from '../support/config.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';

/** Request counts by "route method status", from the histogram's _count series. */
async function countsOf(durations: RequestDurations): Promise<Record<string, number>> {
  const { values } = await durations.histogram.get();
  const counts: Record<string, number> = {};
  for (const value of values) {
    if (value.metricName !== 'postbox_http_request_duration_seconds_count') continue;
    const { route, method, status } = value.labels as Record<string, string>;
    counts[`${route} ${method} ${status}`] = value.value;
  }
  return counts;
}

describe('request durations in the front door', () => {
  it('counts each answer under its route pattern, method and status; unknown and undecodable paths under (none)', async () => {
    const durations = createRequestDurations();
    const logs = captureLogs();
    const door = createFrontDoor({
      routes: [
        { path: '/exact', methods: { GET: () => ({ status: 200, headers: {}, body: 'ok' }) } },
        { path: '/items/', prefix: true, methods: { GET: async () => ({ status: 200, headers: {}, body: 'item' }) } },
        { path: '/boom', methods: { GET: () => { throw new Error('broken'); } } },
        { path: '/later', methods: { GET: () => Promise.reject(new Error('broken later')) } },
      ],
      answers: {
        notFound: () => ({ status: 404, headers: {}, body: 'not found' }),
        badPath: () => ({ status: 400, headers: {}, body: 'bad path' }),
        methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }),
        internalError: () => ({ status: 500, headers: {}, body: 'failed' }),
      },
      clientAddressOf: () => '127.0.0.1',
      requestLog: logs.requestLog,
      logger: logs.logger,
      requestDurations: durations,
    });
    const send = (method: 'GET' | 'POST', url: string) => inject(door, { method, url });
    await send('GET', '/exact');
    await send('GET', '/exact?query=1');
    // Many distinct item URLs, one series: the number of series does not follow what clients ask for.
    await Promise.all(Array.from({ length: 30 }, (_, index) => send('GET', `/items/${index}`)));
    await send('GET', '/items/%C3%A9t%C3%A9');
    await send('POST', '/exact');
    await send('GET', '/unknown-1');
    await send('GET', '/unknown-2');
    await send('GET', '/items%E0%A4%A');
    await send('GET', '/boom');
    await send('GET', '/later');
    assert.deepEqual(await countsOf(durations), {
      '/exact GET 200': 2,
      '/items/* GET 200': 31,
      '/exact POST 405': 1,
      '(none) GET 404': 2,
      '(none) GET 400': 1,
      '/boom GET 500': 1,
      '/later GET 500': 1,
    });
    const { values } = await durations.histogram.get();
    const sum = values.find((value) => value.metricName === 'postbox_http_request_duration_seconds_sum' && value.labels.route === '/items/*');
    assert.ok(sum && sum.value > 0 && sum.value < 31, 'seconds, not milliseconds');
  });

  it('labels the methods the services answer by name and every other method Node.js parses as "other"', async () => {
    const durations = createRequestDurations();
    const logs = captureLogs();
    const door = createFrontDoor({
      routes: [{ path: '/exact', methods: { GET: () => ({ status: 200, headers: {}, body: 'ok' }), POST: () => ({ status: 204, headers: {} }) } }],
      answers: {
        notFound: () => ({ status: 404, headers: {}, body: 'not found' }),
        badPath: () => ({ status: 400, headers: {}, body: 'bad path' }),
        methodNotAllowed: (allow) => ({ status: 405, headers: { allow } }),
        internalError: () => ({ status: 500, headers: {}, body: 'failed' }),
      },
      clientAddressOf: () => '127.0.0.1',
      requestLog: logs.requestLog,
      logger: logs.logger,
      requestDurations: durations,
    });
    // Every method twice, on a route and off it: 34 methods would otherwise be 34 label values per route and status.
    for (const method of METHODS.filter((name) => name !== 'CONNECT')) {
      for (const url of ['/exact', '/unknown']) await inject(door, { method: method as 'GET', url });
    }
    const methods = new Set(Object.keys(await countsOf(durations)).map((key) => key.split(' ')[1]));
    assert.deepEqual([...methods].sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'other']);
    const counts = await countsOf(durations);
    assert.equal(counts['/exact other 405'], METHODS.length - 1 - 7);
    assert.equal(counts['(none) other 404'], METHODS.length - 1 - 7);
    assert.equal(counts['/exact GET 200'], 1);
  });

  it('is one histogram for the forms and the blog listeners of `postbox serve`, shown by the forms service', async () => {
    await withTempDir('request-durations', async (dir) => {
      await mkdir(path.join(dir, 'posts'));
      const config = loadTestConfig(
        {
          data_dir: 'data',
          server: { listen: '127.0.0.1:0' },
          mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
          forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] }],
          site: { title: 'Blog', base_url: 'https://example.com' },
          blog: { listen: '127.0.0.1:0', content_dir: 'posts' },
        },
        dir,
      );
      const composed = await composeServices(config, captureLogs());
      try {
        const forms = driveService(composed.services.find((service) => service.name === 'forms')!);
        const blog = driveService(composed.services.find((service) => service.name === 'blog')!);
        await blog.inject({ method: 'GET', url: '/api/blog/posts' });
        await blog.inject({ method: 'GET', url: '/api/blog/posts/first' });
        await blog.inject({ method: 'GET', url: '/api/blog/posts/second' });
        await forms.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: '{}' });
        const text = (await forms.inject({ method: 'GET', url: '/metrics?format=prometheus' })).body;
        const count = (labels: string) => new RegExp(`^postbox_http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1];
        assert.equal(count('route="/api/blog/posts",method="GET",status="200"'), '1');
        assert.equal(count('route="/api/blog/posts/\\*",method="GET",status="404"'), '2');
        assert.equal(count('route="/contact",method="POST",status="400"'), '1');
        assert.doesNotMatch(text, /posts\/(?:first|second)/);
      } finally {
        await composed.close();
      }
    });
  });
});
