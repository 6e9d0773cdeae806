// [blog.comments] on the blog listener (docs/comments.md): the comment routes over the backend's comment store and
// the blog's current posts, with the spam checks of `[blog.comments.spam]` (their challenges keyed by the install's
// secret, as the forms' are) and a per-address rate limit in this process; with [mail], the pages of the links in
// comment mails.
import { randomBytes } from 'node:crypto';
import type { Backend } from '../adapters/backend.js';
import type { BlogContent } from '../blog/blog-content.js';
import { createCommentedPostFinder } from '../comments/commented-post.js';
import { createCommentIdMaker } from '../comments/comment-id.js';
import { createCommentMail, type CommentMail } from '../comments/comment-mail.js';
import { commentLinksOf } from '../comments/comment-mails.js';
import { createCommentMailRoutes } from '../comments/http/comment-mail-routes.js';
import { languageKey } from '../blog/content/language.js';
import { publicPostUrl } from '../blog/feeds/public-url.js';
import type { DeliveryQueue } from '../queue/worker.js';
import { createCommentRoutes, COMMENT_MAX_BODY_BYTES, COMMENTS_CHALLENGE_PATH } from '../comments/http/comment-routes.js';
import { registerCommentPaths, registerCommentWidgetPaths } from '../comments/http/openapi.js';
import { createCommentWidgetRoutes } from '../comments/http/widget-routes.js';
import { commentWidget } from '../comments/comment-widget.js';
import type { BlogDocumentPart } from '../blog/http/openapi.js';
import { createCommentRenderer, sanitizeCommentHtml } from '../comments/render-comment.js';
import { createWebmentionRoutes } from '../comments/http/webmention-routes.js';
import { verifyWebmention } from '../comments/webmention/verify-webmention.js';
import { createWebmentionVerifier } from '../comments/webmention/webmention-verifier.js';
import { createTargetFinder } from '../comments/webmention/webmention-target.js';
import { createGuardedFetch } from '../adapters/web/guarded-fetch.js';
import { createContentRules } from '../forms/spam/content-rules.js';
import type { Config } from '../config/config.js';
import { createRedisRateLimits } from '../adapters/redis/rate-limits.js';
import { createRateLimiter } from '../forms/rules/rate-limiter.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import { proofOfWorkSecrets } from '../forms/spam/proof-of-work.js';
import { createSpamCheck } from '../forms/spam/spam-check.js';
import type { Route } from '../http/route-table.js';
import type { Clock, FormRateLimits, Timers } from '../ports.js';
import type { Logger } from '../kit/log.js';
import type { FetchPage } from '../comments/webmention/fetch-page.js';

export interface CommentParts {
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  captchaVerifyUrl?: string;
  /** Reply notifications and the owner's mail (composeCommentMail), with [mail] and its queue. */
  mail?: CommentMail;
  /** How webmention sources are fetched; the guarded fetch of src/adapters/web/ by default. */
  fetchPage?: FetchPage;
  /** The verifier's polls. */
  timers: Timers;
}

/** Webmentions one source host may send per hour (docs/comments.md "Webmentions"). */
const WEBMENTIONS_PER_HOUR = 60;
/** Sources checked at once, by each process. */
const WEBMENTION_CONCURRENCY = 4;
/** How often each process looks for webmentions another one received (or left pending): well within 10 s. */
const WEBMENTION_POLL_MS = 1_000;
/** How long a webmention's status page answers. */
const WEBMENTION_STATUS_KEPT_MS = 30 * 24 * 3_600_000;

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
  const render = createCommentRenderer();
  const createCommentId = createCommentIdMaker(parts.clock);
  const routes = createCommentRoutes(
    { moderation: settings.moderation, closeAfterDays: settings.close_after_days, spamAction: settings.spam.action, allowedOrigins: settings.allowed_origins },
    {
      store: backend.comments,
      spam,
      render,
      createId: createCommentId,
      clock: parts.clock,
      findPost: createCommentedPostFinder(content.current),
      limiter: shared ? shared.limiterFor(RATE_LIMIT_NAME) : perHour > 0 ? createRateLimiter(perHour) : undefined,
      rateLimitKey: createRateLimitKey(config.server.rate_limit_ipv6_prefix),
      afterPost: parts.mail && ((comment, notify) => parts.mail!.afterPost(comment, notify)),
    },
  );
  const widget = createCommentWidgetRoutes(commentWidget());
  const mailRoutes = parts.mail ? createCommentMailRoutes(parts.mail, config.site?.title ?? 'the site') : [];
  // Webmentions are kept in the comment store and checked in the background, a few at a time, by the process that
  // claims each; shutting down waits for those taken.
  const contentRules = createContentRules(settings.spam);
  const verifier = createWebmentionVerifier({
    inbox: backend.comments.webmentions,
    verify: (mention) =>
      verifyWebmention(
        { moderation: settings.moderation, spamAction: settings.spam.action },
        { store: backend.comments, fetchPage: parts.fetchPage ?? createGuardedFetch(settings.webmention_private_sources), contentRules, sanitize: sanitizeCommentHtml, render, createId: createCommentId, clock: parts.clock },
        mention,
      ),
    clock: parts.clock,
    timers: parts.timers,
    concurrency: WEBMENTION_CONCURRENCY,
    pollIntervalMs: WEBMENTION_POLL_MS,
    keepMs: WEBMENTION_STATUS_KEPT_MS,
    onError: (error, mention) =>
      mention
        ? parts.logger.error({ err: error, event: 'webmention_failed', target: mention.target }, 'a webmention could not be checked')
        : parts.logger.error({ err: error, event: 'webmention_failed' }, 'the webmentions received could not be read'),
  });
  verifier.start();
  const webmentionRoutes = createWebmentionRoutes(
    { publicUrl: config.blog!.public_url, privateSources: settings.webmention_private_sources, closeAfterDays: settings.close_after_days },
    {
      findTarget: createTargetFinder(content.current),
      limiter: createRateLimiter(WEBMENTIONS_PER_HOUR),
      inbox: backend.comments.webmentions,
      wake: verifier.wake,
      // A webmention's own id names its status page: 20 random hex digits (WEBMENTION_ID).
      createId: () => randomBytes(10).toString('hex'),
      clock: parts.clock,
    },
  );
  return {
    routes: [...routes, ...widget.routes, ...mailRoutes, ...webmentionRoutes],
    documentPart: (api: Parameters<BlogDocumentPart>[0]) => {
      registerCommentPaths(api);
      registerCommentWidgetPaths(api, widget.versionedPath);
    },
    maxBodyBytes: COMMENT_MAX_BODY_BYTES,
    close: async () => {
      await verifier.close();
      await shared?.close?.();
    },
  };
}

/**
 * Reply notifications and the owner's mail (docs/comments.md "Reply notifications"), when comments are on and
 * `[mail]` sends through its queue: every mail is queued (kind `comment_*`, form ''), as an invitation is.
 */
export function composeCommentMail(
  config: Config,
  backend: Pick<Backend, 'comments' | 'commentMail' | 'accounts'>,
  queue: Pick<DeliveryQueue, 'enqueue'> | undefined,
  content: Pick<BlogContent, 'current'>,
  parts: Pick<CommentParts, 'clock' | 'logger'>,
): CommentMail | undefined {
  const settings = config.blog?.comments;
  if (!settings?.enabled || !config.mail || !queue || !config.blog || !config.site) return undefined;
  const publicUrl = config.blog.public_url;
  return createCommentMail(
    {
      from: config.mail.from,
      siteName: config.site.title,
      ownerAddress: settings.notify_owner ?? config.mail.to,
      links: commentLinksOf(publicUrl),
      listId: `comment-replies.${new URL(publicUrl).hostname}`,
      postUrlOf: ({ slug, lang }) => {
        const { catalog } = content.current();
        const entry = catalog.groups.get(slug)?.versions.get(languageKey(lang));
        return entry ? publicPostUrl(catalog, entry) : '';
      },
    },
    {
      comments: backend.comments,
      store: backend.commentMail,
      send: (kind, mail) => queue.enqueue([{ channel: 'mail', form: '', kind, mail }]),
      randomBytes,
      clock: parts.clock,
      logger: parts.logger,
      // As /admin's decisions, without a user: the link is the owner's capability (docs/comments.md "The owner's mail").
      audit: (event, subject, clientAddress) => backend.accounts.audit({ at: parts.clock(), event, subject, network: networkOf(clientAddress) }),
    },
  );
}

/** The network an audit event records, as /admin records it: an IPv6 address as its /64. */
const networkOf = createRateLimitKey(64);
