// The JSON bodies the forms service answers with beside the error catalogue's, as schemas for GET /openapi.json
// (docs/openapi.md): an accepted submission, /health, /metrics (its counters from the list the service counts, its
// forms from the configuration) and a proof-of-work challenge (the type the ALTCHA library issues).
import type { Challenge } from 'altcha-lib';
import type { FormConfig } from '../../config/config.js';
import { describing } from '../../http/openapi/exact-schema.js';
import { z } from '../../http/openapi/openapi-zod.js';
import { COUNTER_NAMES } from '../metrics.js';

/** `{"ok":true}`: a submission accepted (or quietly dropped as a honeypot hit or quarantined), a bounce report taken. */
export const okBody = z.strictObject({ ok: z.literal(true) }).openapi('Ok');

export function healthBodies(formCount: number) {
  const forms = z.number().int().min(0).openapi({ description: `The number of forms (${formCount} in this configuration).` });
  return {
    ok: z.strictObject({ status: z.literal('ok'), forms }),
    unavailable: z.strictObject({
      status: z.literal('unavailable'),
      forms,
      unavailable: z.array(z.string()).min(1).openapi({ description: 'The parts that cannot be reached: `redis`, `postgres`.' }),
    }),
  };
}

/** GET /metrics in JSON: every counter in `totals` and for every configured form, and `queue` when the queue is on. */
export function metricsBody(forms: readonly FormConfig[], queue: boolean) {
  const count = z.number().int().min(0);
  const counters = z.strictObject(Object.fromEntries(COUNTER_NAMES.map((name) => [name, count]))).openapi('Counters', {
    description: 'The lifetime counters since the start (docs/forms-api.md "/metrics").',
  });
  const queueCounts = z.strictObject({ pending: count, failed: count, fsyncs: count }).openapi({ description: 'The mail queue now (docs/delivery.md "Metrics").' });
  return z.strictObject({
    totals: counters,
    forms: z.strictObject(Object.fromEntries(forms.map((form) => [form.path, counters]))).openapi({ description: 'The counters of each form, by path.' }),
    ...(queue ? { queue: queueCounts } : {}),
  });
}

const challengeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** A challenge as `GET <path>/challenge` issues it, for the ALTCHA widget to solve (docs/spam.md "Proof of work"). */
export const challengeBody = describing<Challenge>()(
  z
    .strictObject({
      codeChallenge: z.strictObject({ image: z.string(), audio: z.string().optional(), length: z.number().optional() }).optional(),
      parameters: z.strictObject({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string(),
        keySignature: z.string().optional(),
        memoryCost: z.number().optional(),
        parallelism: z.number().optional(),
        expiresAt: z.number().optional(),
        data: z.record(z.string(), challengeValue).optional(),
      }),
      signature: z.string().optional(),
    })
    .openapi('Challenge', { description: 'A signed proof-of-work challenge; the widget puts its solution in the form\'s `altcha` field.' }),
);
