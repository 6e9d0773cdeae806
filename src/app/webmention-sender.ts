// The webmentions the blog sends for its posts (docs/comments.md "Sending"), while [blog.comments] is on: the
// sender takes each target in the comment store's ledger and queues it in the mail core's durable queue, whose
// dispatch sends it through the guarded fetch. Without the queue ([mail] absent, or `queue = false`) none is sent.
import { createGuardedFetch } from '../adapters/web/guarded-fetch.js';
import type { BlogSnapshot } from '../blog/http/snapshot.js';
import type { CommentStore } from '../comments/comment-store.js';
import { createWebmentionSender, postWebmention } from '../comments/webmention/send-webmentions.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { systemTimers } from '../kit/timers.js';
import type { DispatchChannels } from '../queue/dispatch.js';
import type { DeliveryQueue } from '../queue/worker.js';

/** How soon a post whose webmentions could not be queued (the store away) is looked at again. */
const QUEUE_RETRY_MS = 2_000;

/** The sender, or undefined when comments (and with them webmentions) are off or there is no queue. */
export function composeWebmentionSender(
  config: Config,
  comments: Pick<CommentStore, 'sentWebmentions'>,
  queue: Pick<DeliveryQueue, 'enqueue'> | undefined,
  logger: Logger,
): { notice(snapshot: BlogSnapshot): void; close(): Promise<void> } | undefined {
  if (!config.blog?.comments.enabled) return undefined;
  if (!queue) {
    logger.warn({ event: 'webmention_not_sent' }, 'webmentions for the posts are not sent: they go through the mail queue, which needs [mail] with queue = true');
    return undefined;
  }
  const sender = createWebmentionSender({
    ledger: comments.sentWebmentions,
    enqueue: (webmentions) => queue.enqueue(webmentions.map(({ source, target }) => ({ channel: 'webmention', form: '', source, target }))),
    onFailure: (error, source) => logger.warn({ err: error, event: 'webmention_not_sent', source }, 'the webmentions of a post could not be queued yet; they are tried again shortly'),
    timers: systemTimers,
    retryMs: QUEUE_RETRY_MS,
  });
  return sender;
}

/** How the queue's dispatch sends one webmention, while comments are on. */
export function composeWebmentionPoster(config: Config): DispatchChannels['webmentions'] {
  const settings = config.blog?.comments;
  if (!settings?.enabled) return undefined;
  const fetchPage = createGuardedFetch(settings.webmention_private_sources);
  return (webmention) => postWebmention(fetchPage, webmention);
}
