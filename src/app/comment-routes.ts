// [blog.comments] on the blog listener (docs/comments.md): the comment routes over the backend's comment store and
// the blog's current posts, with the spam checks of `[blog.comments.spam]` (their challenges keyed by the install's
// secret, as the forms' are) and a per-address rate limit in this process.
import { randomBytes } from 'node:crypto';
import type { Backend } from '../adapters/backend.js';
import type { BlogContent } from '../blog/blog-content.js';
import { createCommentedPostFinder } from '../comments/commented-post.js';
import { createCommentRoutes, COMMENT_MAX_BODY_BYTES, COMMENTS_CHALLENGE_PATH } from '../comments/http/comment-routes.js';
import { registerCommentPaths, registerCommentWidgetPaths } from '../comments/http/openapi.js';
import { createCommentWidgetRoutes } from '../comments/http/widget-routes.js';
import { commentWidget } from '../comments/comment-widget.js';
import type { BlogDocumentPart } from '../blog/http/openapi.js';
import { createCommentRenderer } from '../comments/render-comment.js';
import type { Config } from '../config/config.js';
import { createRedisRateLimits } from '../adapters/redis/rate-limits.js';
import { createRateLimiter } from '../forms/rules/rate-limiter.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import { proofOfWorkSecrets } from '../forms/spam/proof-of-work.js';
import { createSpamCheck } from '../forms/spam/spam-check.js';
import type { Route } from '../http/route-table.js';
import type { Clock, FormRateLimits } from '../ports.js';
import type { Logger } from '../kit/log.js';

export interface CommentParts {
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  captchaVerifyUrl?: string;
}

/** The key the comment buckets are kept under in Redis, beside the forms' (their paths). */
const RATE_LIMIT_NAME = '/api/blog/posts/*/comments';

/** The comment routes, the body size they read and what to close after them, or undefined when comments are off. */
export function composeCommentRoutes(
  config: Config,
  backend: Pick<Backend, 'comments' | 'spam' | 'newsletter'>,
  content: Pick<BlogContent, 'current'>,
  parts: CommentParts,
): { routes: Route[]; documentPart: BlogDocumentPart; maxBodyBytes: number; close(): Promise<void> } | undefined {
  const settings = config.blog?.comments;
  if (!settings?.enabled) return undefined;
  const perHour = settings.rate_limit_per_hour;
  // With [rate_limit] backend = "redis" every replica counts in the same buckets, as the forms do.
  const shared: FormRateLimits | undefined =
    perHour > 0 && config.rate_limit.backend === 'redis' ? createRedisRateLimits(config.rate_limit.url!, [{ path: RATE_LIMIT_NAME, rate_limit_per_hour: perHour }], parts.logger) : undefined;
  let secrets: Promise<ReturnType<typeof proofOfWorkSecrets>> | undefined;
  const spam = createSpamCheck(
    { path: COMMENTS_CHALLENGE_PATH, spam: settings.spam },
    {
      ledger: backend.spam,
      secrets: () => (secrets ??= backend.newsletter.secret().then(proofOfWorkSecrets)).catch((error: unknown) => {
        secrets = undefined;
        throw error;
      }),
      fetch: parts.fetch ?? globalThis.fetch,
      captchaVerifyUrl: parts.captchaVerifyUrl,
    },
  );
  const routes = createCommentRoutes(
    { moderation: settings.moderation, closeAfterDays: settings.close_after_days, spamAction: settings.spam.action, allowedOrigins: settings.allowed_origins },
    {
      store: backend.comments,
      spam,
      render: createCommentRenderer(),
      createId: () => randomBytes(10).toString('hex'),
      clock: parts.clock,
      findPost: createCommentedPostFinder(content.current),
      limiter: shared ? shared.limiterFor(RATE_LIMIT_NAME) : perHour > 0 ? createRateLimiter(perHour) : undefined,
      rateLimitKey: createRateLimitKey(config.server.rate_limit_ipv6_prefix),
    },
  );
  const widget = createCommentWidgetRoutes(commentWidget());
  routes.push(...widget.routes);
  const documentPart: BlogDocumentPart = (api) => {
    registerCommentPaths(api);
    registerCommentWidgetPaths(api, widget.versionedPath);
  };
  return { routes, documentPart, maxBodyBytes: COMMENT_MAX_BODY_BYTES, close: async () => shared?.close?.() };
}
