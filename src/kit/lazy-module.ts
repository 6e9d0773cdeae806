// A package loaded on first use rather than at start: a blog-only service never renders a campaign, talks to
// Redis or PostgreSQL, nor sends mail, and juice (with cheerio), ioredis, pg and nodemailer cost some 0.45 s and
// 40 MB of a start-up otherwise.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `name`'s exports, required the first time the returned function is called. */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
