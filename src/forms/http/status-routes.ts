// GET /health and GET /metrics (docs/forms-api.md "/metrics"): /health is always open; /metrics is open, or
// behind `server.metrics_token` compared in constant time, and answers JSON or the Prometheus text format,
// compressed for a client that takes it (docs/forms-api.md "Compression"). Open, it shows no series of /admin's
// routes: their statuses would tell anyone how sign-ins go.
import type { Answer } from '../../http/answer.js';
import { isBearerTokenValid } from '../../http/bearer-token.js';
import { createAnswerCompression } from '../../http/compression.js';
import { errorAnswer, JSON_CONTENT_TYPE } from '../../http/error-catalogue.js';
import type { RequestDurations } from '../../http/request-durations.js';
import type { Route, RoutedRequest } from '../../http/route-table.js';
import type { Metrics, MetricsSnapshot } from '../metrics.js';
import { createPrometheusExposition, PROMETHEUS_CONTENT_TYPE } from '../prometheus.js';
import { metricsFormatOf } from './metrics-format.js';

export interface StatusRoutesOptions {
  formCount: number;
  metrics: Metrics;
  metricsToken: string | undefined;
  /** The mail queue's current counts, when the queue is on (docs/delivery.md "Watching the queue"). */
  queueCounts?: () => { pending: number; failed: number; fsyncs: number };
  /** The parts the service needs that cannot be reached now: /health is 503 naming them (docs/forms-api.md). */
  unavailableParts?: () => string[];
  /** The request durations the front doors observe, shown in the Prometheus format. */
  requestDurations?: RequestDurations;
}

/** The two routes, answering GET and HEAD. */
export function createStatusRoutes(options: StatusRoutesOptions): Route[] {
  const { metrics, metricsToken, queueCounts, unavailableParts } = options;
  const healthBody = JSON.stringify({ status: 'ok', forms: options.formCount });
  const health = (): Answer => {
    const unavailable = unavailableParts?.() ?? [];
    if (unavailable.length > 0) {
      return { status: 503, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: JSON.stringify({ status: 'unavailable', forms: options.formCount, unavailable }) };
    }
    // Never cached, as the blog's: a monitor or a load balancer must see the service as it is now.
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: healthBody };
  };
  return [{ path: '/health', methods: { GET: health, HEAD: health } }, createMetricsRoute({ metrics, metricsToken, queueCounts, requestDurations: options.requestDurations })];
}

export interface MetricsRouteOptions {
  /** The form counters; a listener without forms has none, and answers `{"totals":{},"forms":{}}` in JSON. */
  metrics?: Metrics;
  metricsToken: string | undefined;
  queueCounts?: StatusRoutesOptions['queueCounts'];
  requestDurations?: RequestDurations;
}

/** GET and HEAD /metrics, on the forms listener or, without one, on the blog's (docs/forms-api.md "/metrics"). */
export function createMetricsRoute(options: MetricsRouteOptions): Route {
  const { metrics, metricsToken, queueCounts } = options;
  const snapshot = (): MetricsSnapshot => metrics?.snapshot() ?? { totals: {} as MetricsSnapshot['totals'], forms: {} };
  const prometheus = createPrometheusExposition({
    snapshot: metrics ? snapshot : undefined,
    queueCounts,
    requestDurations: options.requestDurations,
    showsRoute: metricsToken === undefined ? (route) => !isAdminRoute(route) : undefined,
  });
  const metricsAnswer = (request: Pick<RoutedRequest, 'raw' | 'query'>): Answer | Promise<Answer> => {
    if (metricsToken !== undefined && !isBearerTokenValid(request.raw.headers.authorization, metricsToken)) {
      return errorAnswer('unauthorized', { 'www-authenticate': 'Bearer' });
    }
    if (metricsFormatOf(request.raw.headers.accept, request.query) === 'prometheus') {
      return prometheus.render().then((body) => ({ status: 200, headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' }, body }));
    }
    return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE, 'cache-control': 'no-store' }, body: JSON.stringify(queueCounts ? { ...snapshot(), queue: queueCounts() } : snapshot()) };
  };
  // Made per request: compressed at the fast levels, in the coding the service's one negotiation picks.
  const compressForClient = createAnswerCompression();
  const metricsRoute = async (request: Pick<RoutedRequest, 'raw' | 'query'>): Promise<Answer> => compressForClient(await metricsAnswer(request), request.raw.headers['accept-encoding']);
  return { path: '/metrics', methods: { GET: metricsRoute, HEAD: metricsRoute } };
}

/** Whether `route`, a pattern of a route table, is one of /admin's (docs/admin.md). */
function isAdminRoute(route: string): boolean {
  return route === '/admin' || route.startsWith('/admin/');
}
