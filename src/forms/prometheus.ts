// /metrics in the Prometheus text format (docs/forms-api.md "/metrics"): the counters of the JSON answer, taken
// from their snapshot at each scrape and split by meaning into families of their own (submissions received and
// refused, deliveries, the newsletter's sign-ups, the queue, the spam checks), the mail queue's counts, the request
// durations of every listener and the process's own metrics, in a registry of this service's own. prom-client
// writes the text and escapes every label value.
import { collectDefaultMetrics, Counter, Gauge, type Histogram, Registry } from 'prom-client';
import type { RequestDurations } from '../http/request-durations.js';
import type { CounterName, Counters, MetricsSnapshot } from './metrics.js';
import { SPAM_REASONS, type SpamReason } from './spam/spam-reasons.js';

/** The Prometheus text format, version 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The queue's fields that count events since start; every other field is a number of messages in that state now. */
const QUEUE_LIFETIME_COUNTS: ReadonlySet<string> = new Set(['fsyncs']);

/** The form label of what was counted for a form no longer configured (a queued message outliving its form). */
export const UNCONFIGURED_FORM = '(unconfigured)';

/** A counter family: its name, its help, and the label that tells its counters apart, if it has more than one. */
interface Family {
  name: string;
  help: string;
  label?: string;
}

const RECEIVED: Family = { name: 'postbox_form_submissions_received_total', help: 'Form POSTs that passed the origin check.' };
const REFUSED: Family = { name: 'postbox_form_submissions_refused_total', help: 'Form requests refused before delivery, by reason (origin_blocked counts refused preflights too).', label: 'reason' };
const UNDELIVERED: Family = { name: 'postbox_form_submissions_undelivered_total', help: 'Submissions that no channel (mail, Telegram, webhook) delivered.' };
const OWNER_MAILS: Family = { name: 'postbox_form_owner_mails_sent_total', help: "Owner mails the mail server accepted (with the queue, the mail queue's final word)." };
const NOTIFICATION_FAILURES: Family = { name: 'postbox_form_notification_failures_total', help: 'Telegram messages and receipts that failed, by channel.', label: 'channel' };
const PERSIST_FAILURES: Family = { name: 'postbox_form_persist_failures_total', help: 'Archive and newsletter writes that failed.' };
const NEWSLETTER: Family = { name: 'postbox_newsletter_signup_events_total', help: "Newsletter forms' sign-ups, by event.", label: 'event' };
const QUEUE: Family = { name: 'postbox_queue_deliveries_total', help: 'Messages of the mail queue, by event: queued, retried, failed (given up).', label: 'event' };
const SPAM_VERDICTS: Family = { name: 'postbox_spam_verdicts_total', help: 'Submissions the spam checks took, by what was done with them.', label: 'verdict' };
const SPAM_REASON_FAMILY: Family = { name: 'postbox_spam_reasons_total', help: 'Reasons the spam checks found, one count per reason per submission.', label: 'reason' };

/** Where each counter of metrics.ts goes: its family and its value of the family's label. */
const PLACES: Readonly<Record<CounterName, readonly [Family, string?]>> = {
  received: [RECEIVED],
  origin_blocked: [REFUSED, 'origin_blocked'],
  rate_limited: [REFUSED, 'rate_limited'],
  body_too_large: [REFUSED, 'body_too_large'],
  invalid_body: [REFUSED, 'invalid_body'],
  validation_failed: [REFUSED, 'validation_failed'],
  honeypot_blocked: [REFUSED, 'honeypot_blocked'],
  send_failed: [UNDELIVERED],
  sent: [OWNER_MAILS],
  telegram_failed: [NOTIFICATION_FAILURES, 'telegram'],
  auto_reply_failed: [NOTIFICATION_FAILURES, 'receipt'],
  persist_failed: [PERSIST_FAILURES],
  duplicate_signup: [NEWSLETTER, 'duplicate_signup'],
  confirmation_sent: [NEWSLETTER, 'confirmation_sent'],
  confirmed: [NEWSLETTER, 'confirmed'],
  confirmation_failed: [NEWSLETTER, 'confirmation_failed'],
  queued: [QUEUE, 'queued'],
  queue_retried: [QUEUE, 'retried'],
  queue_failed: [QUEUE, 'failed'],
  spam_quarantined: [SPAM_VERDICTS, 'quarantined'],
  spam_rejected: [SPAM_VERDICTS, 'rejected'],
  ...spamReasonPlaces(),
};

function spamReasonPlaces(): Record<`spam_${SpamReason}`, readonly [Family, string]> {
  const places = {} as Record<`spam_${SpamReason}`, readonly [Family, string]>;
  for (const reason of SPAM_REASONS) places[`spam_${reason}`] = [SPAM_REASON_FAMILY, reason];
  return places;
}

/** The families, each once, in the order of metrics.ts. */
const FAMILIES: readonly Family[] = [...new Set(Object.values(PLACES).map(([family]) => family))];

/** Each form's counters, and under UNCONFIGURED_FORM what the totals hold beyond them, when anything. */
function countersByForm(snapshot: MetricsSnapshot): Array<[string, Partial<Counters>]> {
  const byForm: Array<[string, Partial<Counters>]> = Object.entries(snapshot.forms);
  const rest: Partial<Counters> = {};
  for (const [counter, total] of Object.entries(snapshot.totals) as Array<[CounterName, number]>) {
    const counted = byForm.reduce((sum, [, counters]) => sum + (counters[counter] ?? 0), 0);
    if (total > counted) rest[counter] = total - counted;
  }
  if (Object.keys(rest).length > 0) byForm.push([UNCONFIGURED_FORM, rest]);
  return byForm;
}

export interface PrometheusSources {
  /** The lifetime counters, in totals and per form; without forms, no counter family is shown. */
  snapshot?: () => MetricsSnapshot;
  /** The mail queue's counts, when the queue is on. */
  queueCounts?: () => Readonly<Record<string, number>>;
  /** The request-duration histogram the front doors observe. */
  requestDurations?: RequestDurations;
  /** Which route patterns of the histogram the exposition shows; every one when absent. */
  showsRoute?: (route: string) => boolean;
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
    for (const family of sources.snapshot ? FAMILIES : []) {
      const labelNames = family.label === undefined ? ['form'] : ['form', family.label];
      new Counter({
        name: family.name,
        help: family.help,
        labelNames,
        registers: [made],
        collect() {
          this.reset();
          for (const [form, counters] of countersByForm(snapshot ?? { totals: {} as Counters, forms: {} })) {
            for (const [counter, value] of Object.entries(counters) as Array<[CounterName, number]>) {
              const place = PLACES[counter];
              if (place?.[0] !== family) continue;
              this.inc(family.label === undefined ? { form } : { form, [family.label]: place[1]! }, value);
            }
          }
        },
      });
    }
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
    if (sources.requestDurations) {
      const { histogram } = sources.requestDurations;
      made.registerMetric(sources.showsRoute ? routesShown(histogram, sources.showsRoute) : histogram);
    }
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
      snapshot = sources.snapshot?.();
      queue = sources.queueCounts?.() ?? {};
      return registry.metrics();
    },
  };
}

/**
 * `histogram` as a registry reads it, without the series of the routes `showsRoute` refuses. The histogram itself
 * keeps counting them (it may be shown in full elsewhere); only this view leaves them out.
 */
function routesShown<T extends string>(histogram: Histogram<T>, showsRoute: (route: string) => boolean): Histogram<T> {
  const shown = async () => {
    const data = await histogram.get();
    return { ...data, values: data.values.filter((value) => showsRoute(String((value.labels as Record<string, unknown>).route))) };
  };
  // A registry reads a metric's name, help, type and get(); the rest of the histogram stays its own.
  return Object.assign(Object.create(histogram) as Histogram<T>, { get: shown, getForPromString: undefined });
}
