// [blog.activitypub] (docs/activitypub.md, docs/configuration.md "[blog.activitypub]"): the blog as an actor of the
// fediverse, followed from Mastodon and the like, served on the blog's listener.
import { z } from 'zod';

export const blogActivityPubSchema = z.strictObject({
  enabled: z.boolean().default(false),
  // The handle is @username@<host of blog.public_url>; the characters Mastodon accepts in a user name.
  username: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,30}$/, 'must be 1 to 30 letters, digits or underscores, e.g. "blog"')
    .default('blog'),
  // Whether remote actors and inboxes may be on loopback or private addresses (tests, a private network).
  allow_private_address: z.boolean().default(false),
});

export type BlogActivityPubConfig = z.output<typeof blogActivityPubSchema>;
