// [analytics] (docs/analytics.md): page views counted without cookies on the blog listener.
import { z } from 'zod';
import { MAX_RATE_LIMIT_PER_HOUR } from './limits.js';

export const analyticsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  // Events one address may send per hour; 0 turns the limit off.
  rate_limit_per_hour: z
    .number()
    .int()
    .min(0)
    .max(MAX_RATE_LIMIT_PER_HOUR, `must be at most ${MAX_RATE_LIMIT_PER_HOUR} (higher rates are not counted exactly; 0 turns the limit off)`)
    .default(600),
});

export type AnalyticsConfig = z.output<typeof analyticsSchema>;
