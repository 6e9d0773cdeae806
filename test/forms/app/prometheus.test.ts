// GET /metrics in the Prometheus text format (docs/forms-api.md "/metrics"): chosen by Accept or ?format, checked by
// promtool, with every JSON counter per form in a family of its meaning, the queue's counts, the request-duration histogram by
// route pattern, the process metrics, label values escaped, and the same bearer token as the JSON answer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { COUNTER_NAMES, type MetricsSnapshot } from '../../../src/forms/metrics.js';
import { createMetrics } from '../../../src/forms/metrics.js';
import { createStatusRoutes } from '../../../src/forms/http/status-routes.js';
import { createPrometheusExposition } from '../../../src/forms/prometheus.js';
import type { Answer } from '../../../src/http/answer.js';
import type { RoutedRequest } from '../../../src/http/route-table.js';
import { createRequestDurations } from '../../../src/http/request-durations.js';
import { contactForm, useTestFormsService } from '../../support/forms-app.js';

const start = useTestFormsService();

/** The counter families of the form counters (docs/forms-api.md "The Prometheus text format"). */
const COUNTER_FAMILIES = [
  'postbox_form_submissions_received_total',
  'postbox_form_submissions_refused_total',
  'postbox_form_submissions_undelivered_total',
  'postbox_form_owner_mails_sent_total',
  'postbox_form_notification_failures_total',
  'postbox_form_persist_failures_total',
  'postbox_newsletter_signup_events_total',
  'postbox_queue_deliveries_total',
  'postbox_spam_verdicts_total',
  'postbox_spam_reasons_total',
];

/** What a Prometheus server sends. */
const PROMETHEUS_ACCEPT = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

/** `promtool check metrics` on `text`: its exit status and what it printed. */
function promtoolCheck(text: string): { status: number | null; output: string } {
  const result = spawnSync('/usr/bin/promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition, label values unescaped. */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      assert.ok(match, `a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, character: string) => (character === 'n' ? '\n' : character));
      }
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

function find(samples: Sample[], name: string, labels: Record<string, string>): Sample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

describe('GET /metrics in the Prometheus format', () => {
  it('answers the text format to text/plain, to what Prometheus sends and to ?format=prometheus; JSON, unchanged, otherwise', async () => {
    const forms = await start();
    const cases: Array<[string, Record<string, string>, 'prometheus' | 'json']> = [
      ['/metrics', { accept: 'text/plain' }, 'prometheus'],
      ['/metrics', { accept: PROMETHEUS_ACCEPT }, 'prometheus'],
      ['/metrics', { accept: 'application/openmetrics-text; version=1.0.0' }, 'prometheus'],
      ['/metrics?format=prometheus', {}, 'prometheus'],
      ['/metrics?format=prometheus', { accept: 'application/json' }, 'prometheus'],
      ['/metrics', {}, 'json'],
      ['/metrics', { accept: '*/*' }, 'json'],
      ['/metrics', { accept: 'application/json' }, 'json'],
      ['/metrics', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, 'json'],
      ['/metrics', { accept: 'text/plain;q=0, application/json' }, 'json'],
      ['/metrics?format=json', { accept: 'text/plain' }, 'json'],
    ];
    const json = await forms.app.inject({ method: 'GET', url: '/metrics' });
    for (const [url, headers, format] of cases) {
      const response = await forms.app.inject({ method: 'GET', url, headers });
      assert.equal(response.statusCode, 200, `${url} ${JSON.stringify(headers)}`);
      assert.equal(response.headers['cache-control'], 'no-store');
      if (format === 'prometheus') {
        assert.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8', JSON.stringify(headers));
        assert.match(response.body, /^# HELP postbox_form_submissions_received_total /m);
      } else {
        assert.equal(response.headers['content-type'], 'application/json; charset=utf-8', JSON.stringify(headers));
        assert.deepEqual(response.json(), json.json());
      }
    }
    const head = await forms.app.inject({ method: 'HEAD', url: '/metrics', headers: { accept: 'text/plain' } });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(head.body, '');
  });

  it('passes promtool and shows every counter of the JSON per form and in total, the queue, the request histogram by route pattern and the process', async () => {
    const forms = await start({ forms: [contactForm(), { path: '/feedback', type: 'feedback' }], extra: { mail: { queue: true } } });
    const post = (url: string, payload: string) => forms.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    await post('/contact', '{}');
    await post('/feedback', '{}');
    await post('/feedback', '{}');
    await post('/contact', JSON.stringify({ name: 'Ann', email: 'ann@example.com', message: 'Hello there, a message long enough.' }));
    await forms.app.inject({ method: 'GET', url: '/nope-1' });
    await forms.app.inject({ method: 'GET', url: '/nope-2?x=1' });
    await forms.app.inject({ method: 'DELETE', url: '/contact' });
    const json = (await forms.app.inject({ method: 'GET', url: '/metrics' })).json() as MetricsSnapshot & { queue: Record<string, number> };
    const response = await forms.app.inject({ method: 'GET', url: '/metrics', headers: { accept: PROMETHEUS_ACCEPT } });
    const text = response.body;

    const check = promtoolCheck(text);
    assert.equal(check.status, 0, check.output);
    assert.equal(check.output.trim(), '', 'no lint problem either');

    const samples = samplesOf(text);
    // Every counter of the JSON, per form, in one family of its meaning: each form's counts add up to its JSON's.
    assert.ok(Object.keys(json.totals).length >= COUNTER_NAMES.length);
    const counted = samples.filter((sample) => COUNTER_FAMILIES.includes(sample.name));
    for (const [form, counters] of Object.entries(json.forms)) {
      const inJson = Object.values(counters).reduce((sum, value) => sum + value, 0);
      assert.ok(inJson > 0, form);
      assert.equal(counted.filter((sample) => sample.labels.form === form).reduce((sum, sample) => sum + sample.value, 0), inJson, form);
    }
    assert.equal(new Set(counted.map((sample) => sample.name)).size, COUNTER_FAMILIES.length, 'every family, zeros included');
    assert.equal(counted.length, Object.keys(json.forms).length * COUNTER_NAMES.length, 'one series per form and counter');
    for (const family of COUNTER_FAMILIES) assert.match(text, new RegExp(`^# HELP ${family} \\S`, 'm'), family);
    assert.equal(find(samples, 'postbox_form_submissions_refused_total', { form: '/feedback', reason: 'validation_failed' })[0]?.value, 2);
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: '/contact' })[0]?.value, 2);
    assert.equal(find(samples, 'postbox_queue_deliveries_total', { form: '/contact', event: 'queued' })[0]?.value, json.forms['/contact']!.queued);
    assert.equal(find(samples, 'postbox_spam_reasons_total', { form: '/contact', reason: 'links' })[0]?.value, 0);
    assert.equal(find(samples, 'postbox_form_events_total', {}).length + find(samples, 'postbox_events_total', {}).length, 0, 'no grab bag');

    // The queue: its message counts as a gauge by state, its fsyncs as a counter.
    assert.match(text, /^# TYPE postbox_queue_messages gauge$/m);
    assert.equal(find(samples, 'postbox_queue_messages', { state: 'pending' })[0]?.value, json.queue.pending);
    assert.equal(find(samples, 'postbox_queue_messages', { state: 'failed' })[0]?.value, json.queue.failed);
    assert.match(text, /^# TYPE postbox_queue_fsyncs_total counter$/m);
    assert.ok(Number(json.queue.fsyncs) > 0, 'the accepted submission was queued');
    assert.equal(find(samples, 'postbox_queue_fsyncs_total', {})[0]?.value, json.queue.fsyncs);

    // The request histogram: by route pattern, method and status; no raw path of an unknown URL.
    assert.match(text, /^# TYPE postbox_http_request_duration_seconds histogram$/m);
    const series = { route: '/feedback', method: 'POST', status: '400' };
    const buckets = find(samples, 'postbox_http_request_duration_seconds_bucket', series);
    assert.ok(buckets.length >= 10, 'one line per bucket');
    assert.equal(find(buckets, 'postbox_http_request_duration_seconds_bucket', { le: '+Inf' })[0]?.value, 2);
    assert.equal(find(samples, 'postbox_http_request_duration_seconds_count', series)[0]?.value, 2);
    assert.ok(find(samples, 'postbox_http_request_duration_seconds_sum', series)[0]!.value > 0);
    assert.equal(find(samples, 'postbox_http_request_duration_seconds_count', { route: '(none)', method: 'GET', status: '404' })[0]?.value, 2);
    assert.equal(find(samples, 'postbox_http_request_duration_seconds_count', { route: '/contact', method: 'DELETE', status: '405' })[0]?.value, 1);
    assert.equal(find(samples, 'postbox_http_request_duration_seconds_count', { route: '/metrics', method: 'GET', status: '200' })[0]?.value, 1, 'the JSON scrape before');
    assert.doesNotMatch(text, /nope/);

    // The process, from a registry of the service's own.
    for (const name of ['process_cpu_user_seconds_total', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes']) {
      assert.ok(find(samples, name, {}).length > 0, name);
    }
  });

  it('shows no series of /admin routes (sign-ins that failed or passed) without metrics_token; all of them with it', async () => {
    const durations = createRequestDurations();
    durations.observe('/admin/login', 'POST', 401, 0.3);
    durations.observe('/admin/login', 'POST', 303, 0.3);
    durations.observe('/admin', 'GET', 200, 0.01);
    durations.observe('/contact', 'POST', 200, 0.01);
    const scrape = async (metricsToken: string | undefined, authorization?: string): Promise<string> => {
      const routes = createStatusRoutes({ formCount: 1, metrics: createMetrics(['/contact']), metricsToken, requestDurations: durations });
      const metrics = routes.find((route) => route.path === '/metrics')!.methods.GET!;
      const request = { raw: { headers: { accept: 'text/plain', authorization } }, query: '' } as unknown as RoutedRequest;
      const answer = (await metrics(request)) as Answer;
      assert.equal(answer.status, 200);
      return String(answer.body);
    };
    const open = await scrape(undefined);
    assert.equal(promtoolCheck(open).status, 0);
    assert.doesNotMatch(open, /admin/);
    assert.equal(find(samplesOf(open), 'postbox_http_request_duration_seconds_count', { route: '/contact' })[0]?.value, 1);
    const guarded = samplesOf(await scrape('s3cret-token', 'Bearer s3cret-token'));
    assert.equal(find(guarded, 'postbox_http_request_duration_seconds_count', { route: '/admin/login', status: '401' })[0]?.value, 1);
    assert.equal(find(guarded, 'postbox_http_request_duration_seconds_count', { route: '/admin' })[0]?.value, 1);
    assert.equal(find(guarded, 'postbox_http_request_duration_seconds_count', { route: '/contact' })[0]?.value, 1);
  });

  it('stays behind metrics_token: 401 {"error":"unauthorized"} without it, in either format', async () => {
    const forms = await start({ extra: { server: { metrics_token: 's3cret-token' } } });
    for (const [url, headers] of [
      ['/metrics', { accept: 'text/plain' }],
      ['/metrics?format=prometheus', {}],
      ['/metrics?format=prometheus', { authorization: 'Bearer wrong' }],
    ] as const) {
      const response = await forms.app.inject({ method: 'GET', url, headers });
      assert.equal(response.statusCode, 401, `${url} ${JSON.stringify(headers)}`);
      assert.deepEqual(response.json(), { error: 'unauthorized' });
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      assert.doesNotMatch(response.body, /postbox_/);
    }
    const allowed = await forms.app.inject({ method: 'GET', url: '/metrics?format=prometheus', headers: { authorization: 'Bearer s3cret-token' } });
    assert.equal(allowed.statusCode, 200);
    assert.equal(promtoolCheck(allowed.body).status, 0);
  });
});

describe('the exposition', () => {
  it('escapes label values (quotes, backslashes, line breaks) and still passes promtool', async () => {
    const odd = '/a"b\\c\nd';
    const counters = { received: 3, sent: 1 } as MetricsSnapshot['totals'];
    const durations = createRequestDurations();
    durations.observe('/x"y\\', 'GET', 200, 0.002);
    const exposition = createPrometheusExposition({ snapshot: () => ({ totals: counters, forms: { [odd]: counters } }), requestDurations: durations });
    const text = await exposition.render();
    assert.match(text, /form="\/a\\"b\\\\c\\nd"/);
    const check = promtoolCheck(text);
    assert.equal(check.status, 0, check.output);
    const samples = samplesOf(text);
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: odd })[0]?.value, 3);
    assert.equal(find(samples, 'postbox_http_request_duration_seconds_count', { route: '/x"y\\' })[0]?.value, 1);
    assert.doesNotMatch(text, /postbox_queue_(?:messages|fsyncs)/, 'no queue: no queue gauges');
  });

  it('follows the counters from one scrape to the next, and counts under "(unconfigured)" what the totals hold beyond the forms', async () => {
    const counters = (values: Partial<MetricsSnapshot['totals']>) => values as MetricsSnapshot['totals'];
    let snapshot: MetricsSnapshot = { totals: counters({ received: 1 }), forms: { '/contact': counters({ received: 1 }) } };
    const exposition = createPrometheusExposition({ snapshot: () => snapshot, queueCounts: () => ({ pending: 2, failed: 0, fsyncs: 7, sending: 1 }) });
    let samples = samplesOf(await exposition.render());
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: '/contact' })[0]?.value, 1);
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: '(unconfigured)' }).length, 0);
    snapshot = { totals: counters({ received: 5, queue_failed: 3, spam_words: 1 }), forms: { '/contact': counters({ received: 5, queue_failed: 1 }) } };
    samples = samplesOf(await exposition.render());
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: '/contact' })[0]?.value, 5);
    assert.equal(find(samples, 'postbox_queue_deliveries_total', { form: '/contact', event: 'failed' })[0]?.value, 1);
    assert.equal(find(samples, 'postbox_queue_deliveries_total', { form: '(unconfigured)', event: 'failed' })[0]?.value, 2);
    assert.equal(find(samples, 'postbox_spam_reasons_total', { form: '(unconfigured)', reason: 'words' })[0]?.value, 1);
    assert.equal(find(samples, 'postbox_form_submissions_received_total', { form: '(unconfigured)' }).length, 0);
    assert.equal(find(samples, 'postbox_queue_messages', { state: 'sending' })[0]?.value, 1);
    assert.equal(find(samples, 'postbox_queue_messages', { state: 'fsyncs' }).length, 0);
    assert.equal(find(samples, 'postbox_queue_fsyncs_total', {})[0]?.value, 7);
  });
});
