// `[forms.spam]`, per form (docs/spam.md): proof of work with its time trap, the content rules, an optional
// third-party captcha, and what a verdict of spam does. Without the table every rule is off and nothing is
// quarantined.
import { z } from 'zod';
import { KNOWN_LANGUAGES } from '../kit/languages.js';

const captcha = z.strictObject({
  provider: z.enum(['turnstile', 'hcaptcha'], { error: 'must be "turnstile" or "hcaptcha"' }),
  secret: z.string().min(1, 'must not be empty'),
});

export const spamSchema = z
  .strictObject({
    proof_of_work: z.boolean().default(false),
    min_seconds: z.number().min(0, 'must be 0 or more').max(3600, 'must be at most 3600 (an hour)').default(3),
    challenge_expires_seconds: z
      .number()
      .int('must be a whole number of seconds')
      .min(30, 'must be at least 30 (a visitor needs the time to fill the form)')
      .max(86400, 'must be at most 86400 (a day)')
      .default(600),
    max_links: z.number().int('must be a whole number').min(0, 'must be 0 or more').optional(),
    block_disposable: z.boolean().default(false),
    languages: z
      .array(
        z
          .string()
          .refine((code) => KNOWN_LANGUAGES.has(code), { error: (issue) => `"${String(issue.input)}" is not an ISO 639-1 code the language check knows (docs/spam.md lists them)` }),
      )
      .min(1, 'must name at least one language, or be left out')
      .optional(),
    blocked_words: z.array(z.string().trim().min(1, 'must not be empty')).default([]),
    captcha: captcha.optional(),
    action: z.enum(['quarantine', 'reject'], { error: 'must be "quarantine" or "reject"' }).default('quarantine'),
  })
  .prefault({});

export type SpamConfig = z.output<typeof spamSchema>;

/** `spam_keep_days`: how long quarantined submissions are kept. */
export const spamKeepDays = z.number().int('must be a whole number of days').min(1, 'must be at least 1').max(3650, 'must be at most 3650 (ten years)').default(30);
