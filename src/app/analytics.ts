// [analytics] (docs/analytics.md): the counting over the backend's rollups, with the day's salt and visitor sets in
// this process, or in the Redis of `[rate_limit]` when replicas share it; and its routes for the blog listener.
import { randomBytes } from 'node:crypto';
import type { Backend } from '../adapters/backend.js';
import { createRedisVisitorSets } from '../adapters/redis/analytics-visitors.js';
import { createAnalytics, type Analytics } from '../analytics/analytics.js';
import { beaconScript } from '../analytics/beacon-script.js';
import { createAnalyticsRoutes } from '../analytics/http/analytics-routes.js';
import { registerAnalyticsPaths } from '../analytics/http/openapi.js';
import type { BlogDocumentPart } from '../blog/http/openapi.js';
import { createMemoryVisitors } from '../analytics/memory-visitors.js';
import type { Config } from '../config/config.js';
import { createRateLimiter } from '../forms/rules/rate-limiter.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import type { Route } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock, Timers } from '../ports.js';

export interface ComposedAnalytics {
  analytics: Analytics;
  routes: Route[];
  /** What the routes add to the blog's /openapi.json. */
  documentPart: BlogDocumentPart;
  /** Writes what is counted, then releases Redis. */
  close(): Promise<void>;
}

/** The analytics of `config`, or undefined when `[analytics]` is off or there is no blog to count on. */
export function composeAnalytics(config: Config, backend: Pick<Backend, 'analytics'>, parts: { logger: Logger; clock: Clock; timers: Timers }): ComposedAnalytics | undefined {
  if (!config.analytics.enabled || !config.site || !config.blog) return undefined;
  const visitors = config.rate_limit.backend === 'redis' ? createRedisVisitorSets(config.rate_limit.url!, randomBytes) : createMemoryVisitors(randomBytes);
  const siteHost = new URL(config.site.base_url).hostname;
  const analytics = createAnalytics(siteHost, { store: backend.analytics, visitors, timers: parts.timers, logger: parts.logger });
  const perHour = config.analytics.rate_limit_per_hour;
  const routes = createAnalyticsRoutes(beaconScript(), {
    analytics,
    siteHost,
    limiter: perHour > 0 ? createRateLimiter(perHour) : undefined,
    rateLimitKey: createRateLimitKey(config.server.rate_limit_ipv6_prefix),
    clock: parts.clock,
  });
  return {
    analytics,
    routes,
    documentPart: registerAnalyticsPaths,
    close: async () => {
      await analytics.close();
      await visitors.close?.();
    },
  };
}
