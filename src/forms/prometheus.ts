// /metrics in the Prometheus text format (docs/forms-api.md "/metrics"): the same counters as the JSON answer,
// taken from their snapshot at each scrape (so a counter added to metrics.ts appears without a change here), the
// mail queue's counts, the request durations of every listener and the process's own metrics, in a registry of
// this service's own. prom-client writes the text and escapes every label value.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RequestDurations } from '../http/request-durations.js';
import type { MetricsSnapshot } from './metrics.js';

/** The Prometheus text format, version 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The queue's fields that count events since start; every other field is a number of messages in that state now. */
const QUEUE_LIFETIME_COUNTS: ReadonlySet<string> = new Set(['fsyncs']);

export interface PrometheusSources {
  /** The lifetime counters, in totals and per form. */
  snapshot(): MetricsSnapshot;
  /** The mail queue's counts, when the queue is on. */
  queueCounts?: () => Readonly<Record<string, number>>;
  /** The request-duration histogram the front doors observe. */
  requestDurations?: RequestDurations;
}

export interface PrometheusExposition {
  /** The whole exposition, as of now. */
  render(): Promise<string>;
}

/**
 * The exposition of `sources`. The process metrics start being collected on the first render, so that a service
 * nobody scrapes in this format watches nothing.
 */
export function createPrometheusExposition(sources: PrometheusSources): PrometheusExposition {
  let registry: Registry | undefined;
  // Read once per render, so that the totals and the forms of one exposition agree.
  let snapshot: MetricsSnapshot | undefined;
  let queue: Readonly<Record<string, number>> = {};

  const build = (): Registry => {
    const made = new Registry();
    new Counter({
      name: 'postbox_form_events_total',
      help: 'Lifetime counts per form, one series per counter of the JSON /metrics.',
      labelNames: ['form', 'event'] as const,
      registers: [made],
      collect() {
        this.reset();
        for (const [form, counters] of Object.entries(snapshot?.forms ?? {})) {
          for (const [event, value] of Object.entries(counters)) this.inc({ form, event }, value);
        }
      },
    });
    new Counter({
      name: 'postbox_events_total',
      help: 'Lifetime counts of every form together, including forms no longer configured, by counter.',
      labelNames: ['event'] as const,
      registers: [made],
      collect() {
        this.reset();
        for (const [event, value] of Object.entries(snapshot?.totals ?? {})) this.inc({ event }, value);
      },
    });
    if (sources.queueCounts) {
      new Gauge({
        name: 'postbox_queue_messages',
        help: 'Messages in the mail queue now, by state (pending: waiting or being sent; failed: given up).',
        labelNames: ['state'] as const,
        registers: [made],
        collect() {
          this.reset();
          for (const [state, value] of Object.entries(queue)) if (!QUEUE_LIFETIME_COUNTS.has(state)) this.set({ state }, value);
        },
      });
      for (const field of QUEUE_LIFETIME_COUNTS) {
        new Counter({
          name: `postbox_queue_${field}_total`,
          help: `The mail queue's ${field} since start.`,
          registers: [made],
          collect() {
            this.reset();
            this.inc(queue[field] ?? 0);
          },
        });
      }
    }
    if (sources.requestDurations) made.registerMetric(sources.requestDurations.histogram);
    collectDefaultMetrics({ register: made });
    // A gauge named like a counter (prom-client's nodejs_active_handles_total, the sum of nodejs_active_handles by
    // type) fails the exposition's lint; the series by type say the same.
    for (const metric of made.getMetricsAsArray()) {
      if (metric.name.endsWith('_total') && String(metric.type) !== 'counter') made.removeSingleMetric(metric.name);
    }
    return made;
  };

  return {
    async render() {
      registry ??= build();
      snapshot = sources.snapshot();
      queue = sources.queueCounts?.() ?? {};
      return registry.metrics();
    },
  };
}
