// How long requests take, by route, method and status: the histogram of docs/forms-api.md "/metrics" in the
// Prometheus format, observed by the front door of each listener. A request is counted under its route's pattern
// (`/api/blog/posts/*`), never its raw path, and under its method only when that is one of RFC 9110's (and PATCH),
// so the number of series stays bounded whatever clients ask for.
import { Histogram } from 'prom-client';

/** The label of a request no route took (404, or a path that could not be decoded). */
export const NO_ROUTE = '(none)';

/** The method label of a request whose method is none of LABELLED_METHODS (PROPFIND, MKCOL, a made-up one). */
export const OTHER_METHOD = 'other';

/**
 * The methods counted under their own name: those the services answer, and the few a client commonly sends to be
 * answered 405. Node.js parses 34 methods; each of the others would otherwise make series of its own.
 */
const LABELLED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

/** `method` as the histogram labels it. */
export function methodLabelOf(method: string): string {
  return LABELLED_METHODS.has(method) ? method : OTHER_METHOD;
}

/**
 * Upper bounds in seconds: from a cached blog answer (tens of microseconds) to a sign-in's password check and a
 * submission waiting for its mail server.
 */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const REQUEST_DURATION_METRIC = 'postbox_http_request_duration_seconds';

export interface RequestDurations {
  /** Counts one answered request. `route` is a pattern of the route table or NO_ROUTE; `method` is labelled by methodLabelOf. */
  observe(route: string, method: string, status: number, seconds: number): void;
  /** The histogram, in no registry: the Prometheus exposition registers it in its own. */
  readonly histogram: Histogram<'route' | 'method' | 'status'>;
}

/** One histogram for every listener of a process. */
export function createRequestDurations(): RequestDurations {
  const histogram = new Histogram({
    name: REQUEST_DURATION_METRIC,
    help: 'Time from a request reaching the front door to its answer being written, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: BUCKETS,
    registers: [],
  });
  // One label set per route, method and status, made on first use: a request allocates nothing of its own here,
  // and an observation costs about half a microsecond, against some tens for a cached blog answer.
  const labelSets = new Map<string, Map<string, Map<number, Labels>>>();
  const labelsOf = (route: string, method: string, status: number): Labels => {
    let byMethod = labelSets.get(route);
    if (byMethod === undefined) labelSets.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let labels = byStatus.get(status);
    if (labels === undefined) byStatus.set(status, (labels = Object.freeze({ route, method, status: String(status) })));
    return labels;
  };
  return {
    histogram,
    observe: (route, method, status, seconds) => histogram.observe(labelsOf(route, methodLabelOf(method), status), seconds),
  };
}

type Labels = Readonly<Record<'route' | 'method' | 'status', string>>;
