// The webmentions the blog sends for its posts (docs/comments.md "Sending"), while [blog.comments] is on: the
// sender over the guarded fetch, its ledger in data_dir, and a queue of its own that shutting down waits for.
import { createGuardedFetch } from '../adapters/web/guarded-fetch.js';
import { createWebmentionLedger } from '../adapters/files/webmention-ledger.js';
import type { BlogSnapshot } from '../blog/http/snapshot.js';
import { createWebmentionSender } from '../comments/webmention/send-webmentions.js';
import { createTaskQueue } from '../comments/webmention/webmention-queue.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../kit/log.js';

/** Targets sent to at once. */
const SEND_CONCURRENCY = 2;

/** The sender, or undefined when comments (and with them webmentions) are off. */
export function composeWebmentionSender(config: Config, logger: Logger): { notice(snapshot: BlogSnapshot): void; close(): Promise<void> } | undefined {
  const settings = config.blog?.comments;
  if (!settings?.enabled) return undefined;
  const queue = createTaskQueue(SEND_CONCURRENCY, (error) => logger.error({ err: error }, 'webmention sending failed'));
  const sender = createWebmentionSender({
    fetchPage: createGuardedFetch(settings.webmention_private_sources),
    ledger: createWebmentionLedger(config.data_dir),
    queue,
    onFailure: (error, source, target) =>
      logger.warn({ event: 'webmention_not_sent', source, target, reason: (error as Error).message }, 'a webmention could not be sent; it is tried again at the next change or start'),
    onSent: (source, target) => logger.info({ event: 'webmention_sent', source, target }, 'webmention sent'),
  });
  return { notice: sender.notice, close: () => queue.settled() };
}
