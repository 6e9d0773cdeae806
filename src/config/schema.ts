// The strict schema of config.toml (docs/configuration.md): every default is declared here, once.
import { z } from 'zod';
import { adminSchema } from './admin.js';
import { analyticsSchema } from './analytics.js';
import { blogCommentsSchema } from './blog-comments.js';
import { blogActivityPubSchema } from './blog-activitypub.js';
import { blogGitSchema } from './blog-git.js';
import { dataFileName, folderPath } from './data-files.js';
import { bouncesSchema } from './bounces.js';
import { dkimSchema } from './dkim.js';
import { findFormClashes } from './form-clashes.js';
import { isHost, isUnspecifiedHost, listenAddress } from './hosts.js';
import {
  CONFIRM_TTL_HOURS,
  IPV6_PREFIX,
  MAX_BODY_BYTES,
  MAX_CACHE_MAX_AGE,
  MAX_MESSAGE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_QUEUE_HOURS,
  MAX_SEND_PER_MINUTE,
  MAX_RATE_LIMIT_PER_HOUR,
  MAX_TRUSTED_PROXY_HOPS,
} from './limits.js';
import { mailbox, mailboxList } from './mail-addresses.js';
import { defaultListIdOf, findListProblems, listId, newsletterSchema, PREFERENCES_PATH } from './newsletter-lists.js';
import { headerToken, honeypotField, oneLineText, serviceName, urlPathToken } from './text-values.js';
import { appendableUrl, baseUrl, httpUrl, origin } from './urls.js';
import { spamKeepDays, spamSchema } from './spam.js';
import { attachmentsSchema, storageSchema } from './attachments.js';
import { webhookSchema } from './webhook.js';

const positiveInt = z.number().int().min(1);
const runeCount = z.number().int().min(0);

const telegram = z.strictObject({
  bot_token: urlPathToken,
  chat_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  api_url: appendableUrl.default('https://api.telegram.org/'),
});

const formTypes = ['contact', 'feedback', 'newsletter', 'generic'] as const;

/**
 * Cross-key rules run even when other keys already failed, so that `postbox check` lists every problem of a
 * file at once (docs/configuration.md "How the file is read") instead of one round of them per run.
 */
const reportAlongsideOtherProblems = { when: () => true };

const form = z
  .strictObject({
    path: z
      .string()
      // No ":" or "*" (Fastify would register them as a parameter or a wildcard, matching other paths) and no
      // "%" (requests are routed on their decoded path, so an encoded form path could never be reached).
      .regex(/^\/[A-Za-z0-9._~!$&'()+,;=@/-]*$/, 'must start with "/" and be a plain URL path (no ":", "*" or "%")')
      // Clients resolve "." and ".." segments before they send a path (RFC 3986 section 5.2.4).
      .refine((value) => !/\/\.\.?(?:\/|$)/.test(value), 'must not contain "." or ".." segments (clients remove them)')
      .refine((value) => !['/health', '/metrics', '/altcha.js', '/openapi.json', '/favicon.ico', PREFERENCES_PATH].includes(value) && !value.startsWith('/bounces/'), 'is reserved for the service itself'),
    type: z.enum(formTypes),
    to: mailboxList.optional(),
    allowed_origins: z.array(origin).default([]),
    honeypot_field: honeypotField.default('website'),
    rate_limit_per_hour: z.number().int().min(0).max(MAX_RATE_LIMIT_PER_HOUR, atMost(MAX_RATE_LIMIT_PER_HOUR, 'higher rates are not counted exactly; 0 turns the limit off')).default(10),
    redirect_url: httpUrl.optional(),
    archive: dataFileName.optional(),
    services: z.array(serviceName).min(1).optional(),
    require_name: z.boolean().default(true),
    require_message: z.boolean().default(true),
    name_min: runeCount.default(2),
    name_max: positiveInt.max(MAX_NAME_LENGTH, atMost(MAX_NAME_LENGTH, 'the name is part of a mail subject')).default(100),
    message_min: runeCount.default(10),
    message_max: positiveInt.max(MAX_MESSAGE_LENGTH, atMost(MAX_MESSAGE_LENGTH, 'the message travels whole in one mail')).default(5000),
    receipt: z.boolean().default(true),
    subscribers: dataFileName.optional(),
    confirm_ttl_hours: z
      .number()
      .min(CONFIRM_TTL_HOURS.min, `must be at least ${CONFIRM_TTL_HOURS.min} (a quarter of an hour: the link must outlive mail delivery)`)
      .max(CONFIRM_TTL_HOURS.max, atMost(CONFIRM_TTL_HOURS.max, 'one year'))
      .optional(),
    confirm: z.enum(['link', 'button'], { error: 'must be "link" or "button"' }).optional(),
    // docs/newsletter.md "Lists": the form's own list, and the lists a visitor may tick.
    list: listId.optional(),
    lists: z.array(listId).optional(),
    telegram: telegram.optional(),
    webhook: webhookSchema.optional(),
    spam: spamSchema,
    spam_keep_days: spamKeepDays,
    // docs/attachments.md: files with a submission, multipart only.
    attachments: attachmentsSchema.optional(),
  })
  .superRefine((value, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (value.name_min > value.name_max) issue('name_min', 'must not exceed name_max');
    if (value.message_min > value.message_max) issue('message_min', 'must not exceed message_max');
    if (value.type !== 'newsletter') {
      if (value.subscribers !== undefined) issue('subscribers', 'is only for newsletter forms');
      if (value.confirm_ttl_hours !== undefined) issue('confirm_ttl_hours', 'is only for newsletter forms');
      if (value.confirm !== undefined) issue('confirm', 'is only for newsletter forms');
      if (value.list !== undefined) issue('list', 'is only for newsletter forms');
      if (value.lists !== undefined) issue('lists', 'is only for newsletter forms');
    } else {
      if (value.archive !== undefined) issue('archive', 'is not used by newsletter forms (they keep a subscriber log, see "subscribers")');
      if (value.telegram !== undefined) issue('telegram', 'is not used by newsletter forms (the owner is told of new subscribers by mail)');
      if (value.webhook !== undefined) issue('webhook', 'is not used by newsletter forms (the owner is told of new subscribers by mail)');
      if (value.attachments !== undefined) issue('attachments', 'is not used by newsletter forms');
    }
  }, reportAlongsideOtherProblems)
  .transform((value) => ({
    ...value,
    subscribers:
      value.type === 'newsletter'
        ? (value.subscribers ?? `${value.path.replace(/^\/+/, '').replace(/[^A-Za-z0-9._-]+/g, '-') || 'newsletter'}-subscribers.jsonl`)
        : undefined,
    confirm_ttl_hours: value.type === 'newsletter' ? (value.confirm_ttl_hours ?? 48) : undefined,
    confirm: value.type === 'newsletter' ? (value.confirm ?? 'link') : undefined,
    list: value.type === 'newsletter' ? (value.list ?? defaultListIdOf(value.path)) : undefined,
    lists: value.type === 'newsletter' ? [...new Set(value.lists ?? [])] : undefined,
  }));

const TRUSTED_HOPS_MESSAGE = `must be false, true (one proxy) or the number of proxies in front of the service, 1 to ${MAX_TRUSTED_PROXY_HOPS}`;

/**
 * `trust_proxy_headers` as the number of proxies whose X-Forwarded-For hops are trusted: false is 0, true is 1
 * (docs/configuration.md); src/http/client-ip.ts takes the address the outermost of them saw.
 */
const trustedProxyHops = z.union([z.boolean(), z.number()], { error: TRUSTED_HOPS_MESSAGE }).transform((value, context) => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TRUSTED_PROXY_HOPS) {
    context.addIssue({ code: 'custom', message: TRUSTED_HOPS_MESSAGE });
    return z.NEVER;
  }
  return value;
});

const server = z.strictObject({
  listen: listenAddress.default({ host: '127.0.0.1', port: 8080 }),
  public_url: baseUrl.optional(),
  max_body_bytes: positiveInt.max(MAX_BODY_BYTES, atMost(MAX_BODY_BYTES, '64 MiB: a JSON body is held in memory while it is read')).default(1048576),
  trust_proxy_headers: trustedProxyHops.default(0),
  // IPv6 clients share a rate-limit bucket per network of this many bits (src/forms/rules/rate-limit-key.ts).
  rate_limit_ipv6_prefix: z
    .number()
    .int('must be a whole number of bits')
    .min(IPV6_PREFIX.min, `must be ${IPV6_PREFIX.min} to ${IPV6_PREFIX.max} (the bits of an IPv6 address that share a bucket; 64 is one connection)`)
    .max(IPV6_PREFIX.max, `must be ${IPV6_PREFIX.min} to ${IPV6_PREFIX.max} (the bits of an IPv6 address that share a bucket; 128 is one address)`)
    .default(64),
  metrics_token: headerToken.optional(),
});

const mail = z
  .strictObject({
    // No default here: it depends on [mail.smtp] (the transform below).
    transport: z.enum(['smtp', 'file']).optional(),
    from: mailbox,
    to: mailboxList.optional(),
    // docs/delivery.md: every message is durably queued before the visitor's 200, then sent and retried.
    queue: z.boolean().default(true),
    queue_max_hours: z
      .number()
      .positive('must be more than 0 (how long a message is retried before it is given up)')
      .max(MAX_QUEUE_HOURS, atMost(MAX_QUEUE_HOURS, 'one year'))
      .default(72),
    // docs/newsletter.md "Sending a post": campaign mails handed to the queue per minute; 0 lifts the limit.
    send_per_minute: z
      .number()
      .int('must be a whole number of mails')
      .min(0, 'must be 0 (no limit) or more')
      .max(MAX_SEND_PER_MINUTE, atMost(MAX_SEND_PER_MINUTE, 'a thousand a second'))
      .default(60),
    smtp: z
      .strictObject({
        host: z.string().refine(isHost, 'must be a host name or an IP address'),
        port: z.number().int().min(1).max(65535).default(587),
        secure: z.boolean().default(false),
        username: z.string().min(1).optional(),
        password: z.string().min(1).optional(),
      })
      .optional(),
    dkim: dkimSchema.optional(),
    // docs/bounces.md: the tagged envelope sender, where bounces are read, and the suppression policy.
    bounces: bouncesSchema.prefault({}),
  })
  .superRefine((value, context) => {
    if (value.transport === 'smtp' && !value.smtp) {
      context.addIssue({ code: 'custom', path: ['smtp'], message: 'is required when transport = "smtp"' });
    }
  })
  // A filled-in [mail.smtp] means mail is to be sent: without `transport` it must not end up in files that
  // nobody reads (docs/configuration.md "[mail]", `transport`).
  .transform((value) => ({ ...value, transport: value.transport ?? (value.smtp ? 'smtp' : 'file') }));

/** A language code such as "en" or "pt-BR"; post languages (src/blog/content/language.ts) follow it too. */
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** A fediverse handle "@user@host"; a post's own fediverse_creator is checked against it as well. */
export const FEDIVERSE_HANDLE = /^@[^@\s]+@[^@\s]+\.[^@\s]+$/;

const site = z.strictObject({
  title: oneLineText,
  description: z.string().default(''),
  base_url: baseUrl,
  language: z.string().regex(LANGUAGE_CODE, 'must be a language code such as "en" or "pt-BR"').default('en'),
  author: z.string().default(''),
  fediverse_creator: z.string().regex(FEDIVERSE_HANDLE, 'must look like "@user@host"').optional(),
});

const blog = z.strictObject({
  listen: listenAddress.default({ host: '127.0.0.1', port: 8081 }),
  content_dir: folderPath.default('./content/posts'),
  post_url: z.string().includes('{slug}', { message: 'must contain {slug}' }).default('/blog/{slug}'),
  translation_url: z
    .string()
    .includes('{slug}', { message: 'must contain {slug}' })
    .includes('{lang}', { message: 'must contain {lang}' })
    .default('/{lang}/blog/{slug}'),
  cache_max_age: z.number().int().min(0).max(MAX_CACHE_MAX_AGE, atMost(MAX_CACHE_MAX_AGE, 'the largest age caches understand, RFC 9111 section 1.2.2')).default(60),
  // Where the blog API is reached from outside; media URLs are built on it. No default here: it follows
  // site.base_url (src/config/config.ts).
  public_url: baseUrl.optional(),
  // docs/blog.md "Raw HTML": the hosts whose pages a post without `raw_html` may embed in an iframe.
  allow_iframes_from: z.array(z.string().refine(isHost, 'must be a host name such as "www.youtube-nocookie.com"')).default([]),
  // docs/configuration.md "[blog.git]": content_dir as a git repository, /admin's changes committed and pushed.
  git: blogGitSchema.optional(),
  // docs/comments.md: comments on the posts, answered on this listener.
  comments: blogCommentsSchema.prefault({}),
  // docs/activitypub.md: the blog followed from the fediverse, on this listener.
  activitypub: blogActivityPubSchema.prefault({}),
  // docs/blog.md "Media in storage": images uploaded in /admin kept in content_dir, or in [storage]'s bucket.
  media_storage: z.enum(['content_dir', 's3'], { error: 'must be "content_dir" or "s3"' }).default('content_dir'),
});

/** The whole file. Cross-section rules live in the superRefine below. */
// docs/configuration.md "[rate_limit]": the buckets in this process (and its snapshot file), or shared in Redis by
// every replica.
const rateLimit = z
  .strictObject({
    backend: z.enum(['memory', 'redis']).default('memory'),
    url: z
      .string()
      .refine((value) => /^rediss?:\/\/[^\s]+$/.test(value) && URL.canParse(value), 'must be a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379"')
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.backend === 'redis' && value.url === undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'is required when backend = "redis"' });
    if (value.backend === 'memory' && value.url !== undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'is only for backend = "redis"' });
  });

// docs/configuration.md "[state]": records in data_dir (one process), or in PostgreSQL shared by every replica.
const state = z
  .strictObject({
    backend: z.enum(['files', 'postgres']).default('files'),
    url: z
      .string()
      .refine(
        (value) => /^postgres(ql)?:\/\/[^\s]+$/.test(value) && URL.canParse(value),
        'must be a postgres:// or postgresql:// URL, e.g. "postgres://postbox@127.0.0.1:5432/postbox"',
      )
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.backend === 'postgres' && value.url === undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'is required when backend = "postgres"' });
    if (value.backend === 'files' && value.url !== undefined) context.addIssue({ code: 'custom', path: ['url'], message: 'is only for backend = "postgres"' });
  });

export const configSchema = z
  .strictObject({
    data_dir: folderPath.default('./data'),
    server: server.default(server.parse({})),
    mail: mail.optional(),
    forms: z.array(form, { error: 'must be [[forms]] tables (double brackets in TOML), one per form' }).default([]),
    site: site.optional(),
    blog: blog.optional(),
    admin: adminSchema.optional(),
    rate_limit: rateLimit.default({ backend: 'memory' }),
    // docs/analytics.md: page views without cookies, on the blog listener.
    analytics: analyticsSchema.prefault({}),
    state: state.default({ backend: 'files' }),
    // docs/newsletter.md "Lists".
    newsletter: newsletterSchema.optional(),
    // docs/attachments.md "Storage".
    storage: storageSchema.prefault({}),
  })
  .superRefine((value, context) => {
    // Runs even when other keys are invalid (see reportAlongsideOtherProblems), so nothing here may assume
    // that a value has its declared type.
    const forms = Array.isArray(value.forms) ? value.forms : [];
    for (const clash of findFormClashes(forms)) {
      context.addIssue({ code: 'custom', path: ['forms', clash.index, clash.key], message: clash.message });
    }
    for (const problem of findListProblems(forms, value.newsletter)) context.addIssue({ code: 'custom', ...problem });
    forms.forEach((entry, index) => {
      // docs/attachments.md "Virus scan": never delivered unscanned unless the file says so.
      if (entry?.attachments?.scan === true && !value.storage?.clamd) {
        context.addIssue({ code: 'custom', path: ['forms', index, 'attachments'], message: 'needs [storage] clamd (the virus scanner), or scan = false to deliver files unscanned' });
      }
    });
    forms.forEach((entry, index) => {
      if (entry === null || typeof entry !== 'object') return;
      if (value.mail && !entry.to && !value.mail.to) {
        context.addIssue({ code: 'custom', path: ['forms', index, 'to'], message: 'is required when mail.to is not set (the owner address)' });
      }
    });
    if (value.analytics?.enabled === true && !value.blog) {
      context.addIssue({ code: 'custom', path: ['analytics', 'enabled'], message: 'needs [blog]: the page views are counted on its listener' });
    }
    if (value.admin && !value.blog) {
      forms.forEach((entry, index) => {
        const formPath = typeof entry?.path === 'string' ? entry.path : '';
        if (formPath === '/admin' || formPath.startsWith('/admin/')) {
          context.addIssue({ code: 'custom', path: ['forms', index, 'path'], message: 'is taken by [admin], which this listener serves at /admin' });
        }
      });
    }
    if (forms.length > 0 && !value.mail) {
      context.addIssue({ code: 'custom', path: ['mail'], message: 'is required when forms are configured' });
    }
    if (forms.some((entry) => entry?.type === 'newsletter') && !value.server?.public_url) {
      context.addIssue({ code: 'custom', path: ['server', 'public_url'], message: 'is required when a newsletter form exists (confirmation links are built on it)' });
    }
    if (value.blog?.media_storage === 's3' && value.storage?.kind !== 's3') {
      context.addIssue({ code: 'custom', path: ['blog', 'media_storage'], message: 'needs [storage] kind = "s3" (the bucket the images go to)' });
    }
    if (value.blog?.media_storage === 's3' && value.blog.git?.enabled === true) {
      context.addIssue({ code: 'custom', path: ['blog', 'media_storage'], message: 'is for sites without [blog.git]: with git, images are committed beside their post' });
    }
    if (value.blog && !value.site) {
      context.addIssue({ code: 'custom', path: ['site'], message: 'is required when [blog] is configured' });
    }
    const formsListen = value.server?.listen;
    const blogListen = value.blog?.listen;
    if (forms.length > 0 && isSameListenAddress(formsListen, blogListen)) {
      context.addIssue({ code: 'custom', path: ['blog', 'listen'], message: 'takes the port of server.listen (each service needs its own)' });
    }
    if (forms.length === 0 && !value.blog) {
      context.addIssue({ code: 'custom', path: [], message: 'nothing to serve: add [[forms]] and/or [blog]' });
      // /admin is served on the blog's listener, else on the forms service's (docs/admin.md).
      if (value.admin) context.addIssue({ code: 'custom', path: ['admin'], message: 'needs [blog] or [[forms]]: /admin is served on their listener' });
    }
  }, reportAlongsideOtherProblems);

/** `n` as a bound with its reason, for the message of a value above it. */
function atMost(limit: number, reason: string): string {
  return `must be at most ${limit} (${reason})`;
}

/**
 * Whether two listen addresses would fight over one port: the same port (0 picks a free one each) on the same
 * host, or on any host when one of them listens on every interface.
 */
function isSameListenAddress(first: unknown, second: unknown): boolean {
  if (!isListenAddress(first) || !isListenAddress(second) || first.port === 0 || first.port !== second.port) return false;
  return first.host.toLowerCase() === second.host.toLowerCase() || isUnspecifiedHost(first.host) || isUnspecifiedHost(second.host);
}

function isListenAddress(value: unknown): value is { host: string; port: number } {
  return typeof value === 'object' && value !== null && typeof (value as { host?: unknown }).host === 'string' && typeof (value as { port?: unknown }).port === 'number';
}

/** What the schema accepts; src/config/config.ts turns it into the Config the code uses. */
export type ParsedConfig = z.output<typeof configSchema>;
