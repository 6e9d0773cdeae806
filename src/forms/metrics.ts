// The lifetime counters of docs/forms-api.md "/metrics", in totals and per form, 0 when nothing happened: the
// forms service's own 16, the queue's three (docs/delivery.md "Watching the queue"), then the spam checks': what
// was quarantined or rejected, and one counter per reason (docs/spam.md "Counting").
import { SPAM_REASONS, type SpamReason } from './spam/spam-reasons.js';

export const COUNTER_NAMES = [
  'received',
  'honeypot_blocked',
  'rate_limited',
  'origin_blocked',
  'body_too_large',
  'invalid_body',
  'validation_failed',
  'send_failed',
  'persist_failed',
  'duplicate_signup',
  'confirmation_sent',
  'confirmed',
  'confirmation_failed',
  'sent',
  'auto_reply_failed',
  'telegram_failed',
  'queued',
  'queue_retried',
  'queue_failed',
  'spam_quarantined',
  'spam_rejected',
  ...SPAM_REASONS.map((reason): `spam_${SpamReason}` => `spam_${reason}`),
] as const;

export type CounterName = (typeof COUNTER_NAMES)[number];
export type Counters = Record<CounterName, number>;

export interface MetricsSnapshot {
  totals: Counters;
  forms: Record<string, Counters>;
}

export interface Metrics {
  /** Adds one to `counter` for the form at `formPath` and to the total. */
  count(formPath: string, counter: CounterName): void;
  snapshot(): MetricsSnapshot;
}

function zeroCounters(): Counters {
  return Object.fromEntries(COUNTER_NAMES.map((name) => [name, 0])) as Counters;
}

/** Counters for the given form paths; counts for an unknown path go to the totals only. */
export function createMetrics(formPaths: readonly string[]): Metrics {
  const totals = zeroCounters();
  const forms = new Map(formPaths.map((formPath) => [formPath, zeroCounters()]));
  return {
    count(formPath, counter) {
      totals[counter] += 1;
      const perForm = forms.get(formPath);
      if (perForm) perForm[counter] += 1;
    },
    snapshot() {
      return {
        totals: { ...totals },
        forms: Object.fromEntries([...forms].map(([formPath, counters]) => [formPath, { ...counters }])),
      };
    },
  };
}
