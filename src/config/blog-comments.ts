// [blog.comments] (docs/comments.md, docs/configuration.md "[blog.comments]"): comments on the blog's posts, who
// may send them, how they are moderated, and the spam rules of `[forms.spam]` with proof of work on by default.
import { z } from 'zod';
import { MAX_RATE_LIMIT_PER_HOUR } from './limits.js';
import { mailboxList } from './mail-addresses.js';
import { spamSchema } from './spam.js';
import { origin } from './urls.js';

/** `[blog.comments.spam]` as `[forms.spam]`, except that proof of work is on unless it is turned off. */
const commentsSpamSchema = z.preprocess(
  (value) => (value === undefined ? { proof_of_work: true } : typeof value === 'object' && value !== null && !('proof_of_work' in value) ? { ...value, proof_of_work: true } : value),
  spamSchema,
);

export const blogCommentsSchema = z.strictObject({
  enabled: z.boolean().default(false),
  // "first": an address's first comment waits for a person; once one is approved, its next ones are published.
  moderation: z.enum(['first', 'all', 'none'], { error: 'must be "first", "all" or "none"' }).default('first'),
  allowed_origins: z.array(origin).default([]),
  // A post's thread closes this many days after its date; without it threads stay open.
  close_after_days: z.number().int('must be a whole number of days').min(1, 'must be at least 1').max(36500, 'must be at most 36500 (a hundred years)').optional(),
  rate_limit_per_hour: z
    .number()
    .int()
    .min(0)
    .max(MAX_RATE_LIMIT_PER_HOUR, `must be at most ${MAX_RATE_LIMIT_PER_HOUR} (higher rates are not counted exactly; 0 turns the limit off)`)
    .default(10),
  spam: commentsSpamSchema,
  // Where the mail about each comment that waits goes (docs/comments.md "The owner's mail"); [mail] to without it.
  notify_owner: mailboxList.optional(),
  // docs/comments.md "Webmentions": whether a webmention's source may be on a private or loopback address.
  webmention_private_sources: z.boolean().default(false),
});

export type BlogCommentsConfig = z.output<typeof blogCommentsSchema>;
