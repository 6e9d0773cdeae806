// A service's routes as data: which handler answers a method on a path. The front door asks the table and
// answers 404 when no route has the path and 405 with `Allow` when the route lacks the method, both derived
// from the table itself.
import type { IncomingMessage } from 'node:http';
import type { Answer } from './answer.js';

/** A request as the front door hands it to a route. */
export interface RoutedRequest {
  method: string;
  /** The path without the query, percent-decoded. */
  path: string;
  /** The request target as it was sent (path and query), for memos keyed by it. */
  url: string;
  /** The query string without its "?", "" when there is none. */
  query: string;
  /** The client address (docs/configuration.md "trust_proxy_headers"). */
  clientAddress: string;
  /** Node's request: its headers, raw headers and the unread body. */
  raw: IncomingMessage;
}

/** Answers a request; may throw or reject: the front door turns that into a logged 500. */
export type Handler = (request: RoutedRequest) => Answer | Promise<Answer>;

export interface Route {
  /** An exact path, or with `prefix` every path that starts with it. */
  path: string;
  prefix?: boolean;
  /** With `prefix`: the path must also end with this, after at least one character (`/api/blog/posts/<slug>/comments`). */
  suffix?: string;
  /** Handlers by method; `'*'` answers every method not listed, instead of 405. */
  methods: Readonly<Record<string, Handler>>;
}

/**
 * What the table says for one method on one path, with the route's pattern (its path, `*` after a prefix): what a
 * request is counted under in /metrics, never the raw path (docs/forms-api.md "/metrics").
 */
export type RouteMatch = { handler: Handler; allow?: undefined; route: string } | { handler?: undefined; allow: string; route: string } | undefined;

/**
 * The table's lookup: exact paths first, then prefixes, longest first. A path listed twice keeps its first
 * route (the configuration refuses duplicate form paths).
 */
export function createRouteLookup(routes: readonly Route[]): (method: string, path: string) => RouteMatch {
  const exact = new Map<string, CompiledRoute>();
  const prefixes: CompiledRoute[] = [];
  for (const route of routes) {
    const compiled = compile(route);
    if (route.prefix) prefixes.push(compiled);
    else if (!exact.has(route.path)) exact.set(route.path, compiled);
  }
  prefixes.sort((a, b) => b.path.length + b.suffix.length - (a.path.length + a.suffix.length));
  const byPrefix = (path: string): CompiledRoute | undefined => {
    for (const candidate of prefixes) if (path.startsWith(candidate.path) && isSuffixOf(candidate, path)) return candidate;
    return undefined;
  };
  return (method, path) => {
    const route = exact.get(path) ?? byPrefix(path);
    if (route === undefined) return undefined;
    return route.handlers.get(method) ?? route.any ?? route.notAllowed;
  };
}

/** A route with its matches made once, so that a lookup allocates nothing. */
interface CompiledRoute {
  path: string;
  suffix: string;
  handlers: Map<string, RouteMatch & { handler: Handler }>;
  any: (RouteMatch & { handler: Handler }) | undefined;
  notAllowed: { allow: string; route: string };
}

function compile(route: Route): CompiledRoute {
  const suffix = route.suffix ?? '';
  const pattern = route.prefix ? `${route.path}*${suffix}` : route.path;
  const handlers = new Map(
    Object.entries(route.methods)
      .filter(([method]) => method !== '*')
      .map(([method, handler]) => [method, { handler, route: pattern }] as const),
  );
  const any = route.methods['*'];
  return { path: route.path, suffix, handlers, any: any && { handler: any, route: pattern }, notAllowed: { allow: [...handlers.keys()].join(', '), route: pattern } };
}

/** Whether `path` (which starts with the route's prefix) ends with its suffix, with something in between. */
function isSuffixOf(route: CompiledRoute, path: string): boolean {
  return route.suffix === '' || (path.length > route.path.length + route.suffix.length && path.endsWith(route.suffix));
}
