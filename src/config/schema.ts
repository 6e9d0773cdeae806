// The strict schema of config.toml (contract section 2): every default is declared here, once.
import { z } from 'zod';
import { appendableUrl, baseUrl, httpUrl, origin } from './urls.js';

/** "host:port" or "[v6]:port"; port 0 asks the system for a free one. */
const listenAddress = z.string().transform((value, context) => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    context.addIssue({ code: 'custom', message: `must be "host:port", got "${value}"` });
    return z.NEVER;
  }
  return { host: (match[1] ?? match[2]) as string, port };
});

const positiveInt = z.number().int().min(1);
const runeCount = z.number().int().min(0);

const telegram = z.strictObject({
  bot_token: z.string().min(1),
  chat_id: z.union([z.string().min(1), z.number().int()]).transform(String),
  api_url: appendableUrl.default('https://api.telegram.org/'),
});

const formTypes = ['contact', 'feedback', 'newsletter', 'generic'] as const;

/**
 * Cross-key rules run even when other keys already failed, so that `postbox check` lists every problem of a
 * file at once (contract section 1) instead of one round of them per run.
 */
const reportAlongsideOtherProblems = { when: () => true };

const form = z
  .strictObject({
    path: z
      .string()
      // No ":" or "*" (Fastify would register them as a parameter or a wildcard, matching other paths) and no
      // "%" (requests are routed on their decoded path, so an encoded form path could never be reached).
      .regex(/^\/[A-Za-z0-9._~!$&'()+,;=@/-]*$/, 'must start with "/" and be a plain URL path (no ":", "*" or "%")')
      .refine((value) => value !== '/health' && value !== '/metrics', 'is reserved for the service itself'),
    type: z.enum(formTypes),
    to: z.string().min(3).optional(),
    allowed_origins: z.array(origin).default([]),
    honeypot_field: z.string().min(1).default('website'),
    rate_limit_per_hour: z.number().int().min(0).default(10),
    redirect_url: httpUrl.optional(),
    archive: z.string().min(1).optional(),
    services: z.array(z.string().min(1)).min(1).optional(),
    require_name: z.boolean().default(true),
    require_message: z.boolean().default(true),
    name_min: runeCount.default(2),
    name_max: positiveInt.default(100),
    message_min: runeCount.default(10),
    message_max: positiveInt.default(5000),
    receipt: z.boolean().default(true),
    subscribers: z.string().min(1).optional(),
    confirm_ttl_hours: z.number().positive().optional(),
    telegram: telegram.optional(),
  })
  .superRefine((value, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (value.name_min > value.name_max) issue('name_min', 'must not exceed name_max');
    if (value.message_min > value.message_max) issue('message_min', 'must not exceed message_max');
    if (value.type !== 'newsletter') {
      if (value.subscribers !== undefined) issue('subscribers', 'is only for newsletter forms');
      if (value.confirm_ttl_hours !== undefined) issue('confirm_ttl_hours', 'is only for newsletter forms');
    } else {
      if (value.archive !== undefined) issue('archive', 'is not used by newsletter forms (they keep a subscriber log, see "subscribers")');
      if (value.telegram !== undefined) issue('telegram', 'is not used by newsletter forms (the owner is told of new subscribers by mail)');
    }
    if (typeof value.archive === 'string' && !isPlainFileName(value.archive)) {
      issue('archive', 'must be a file name inside data_dir');
    }
    if (typeof value.subscribers === 'string' && !isPlainFileName(value.subscribers)) {
      issue('subscribers', 'must be a file name inside data_dir');
    }
  }, reportAlongsideOtherProblems)
  .transform((value) => ({
    ...value,
    subscribers:
      value.type === 'newsletter'
        ? (value.subscribers ?? `${value.path.replace(/^\/+/, '').replace(/[^A-Za-z0-9._-]+/g, '-') || 'newsletter'}-subscribers.jsonl`)
        : undefined,
    confirm_ttl_hours: value.type === 'newsletter' ? (value.confirm_ttl_hours ?? 48) : undefined,
  }));

function isPlainFileName(name: string): boolean {
  return !name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..';
}

/** Most proxies a deployment puts in front of the forms service (CDN, load balancer, reverse proxy, ...). */
export const MAX_TRUSTED_PROXY_HOPS = 10;

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
  max_body_bytes: positiveInt.default(1048576),
  trust_proxy_headers: trustedProxyHops.default(0),
  // IPv6 clients share a rate-limit bucket per network of this many bits (src/forms/rules/rate-limit-key.ts):
  // wider than /48 would put whole sites together, and /128 is one address.
  rate_limit_ipv6_prefix: z.number().int().min(48).max(128).default(64),
  metrics_token: z.string().min(1).optional(),
});

const mail = z
  .strictObject({
    transport: z.enum(['smtp', 'file']).default('file'),
    from: z.string().min(3),
    to: z.string().min(3).optional(),
    smtp: z
      .strictObject({
        host: z.string().min(1),
        port: z.number().int().min(1).max(65535).default(587),
        secure: z.boolean().default(false),
        username: z.string().min(1).optional(),
        password: z.string().min(1).optional(),
      })
      .optional(),
  })
  .superRefine((value, context) => {
    if (value.transport === 'smtp' && !value.smtp) {
      context.addIssue({ code: 'custom', path: ['smtp'], message: 'is required when transport = "smtp"' });
    }
  });

/** A language code such as "en" or "pt-BR"; post languages (src/blog/content/language.ts) follow it too. */
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** A fediverse handle "@user@host"; a post's own fediverse_creator is checked against it as well. */
export const FEDIVERSE_HANDLE = /^@[^@\s]+@[^@\s]+\.[^@\s]+$/;

const site = z.strictObject({
  title: z.string().min(1),
  description: z.string().default(''),
  base_url: baseUrl,
  language: z.string().regex(LANGUAGE_CODE, 'must be a language code such as "en" or "pt-BR"').default('en'),
  author: z.string().default(''),
  fediverse_creator: z.string().regex(FEDIVERSE_HANDLE, 'must look like "@user@host"').optional(),
});

const blog = z.strictObject({
  listen: listenAddress.default({ host: '127.0.0.1', port: 8081 }),
  content_dir: z.string().min(1).default('./content/posts'),
  post_url: z.string().includes('{slug}', { message: 'must contain {slug}' }).default('/blog/{slug}'),
  translation_url: z
    .string()
    .includes('{slug}', { message: 'must contain {slug}' })
    .includes('{lang}', { message: 'must contain {lang}' })
    .default('/{lang}/blog/{slug}'),
  cache_max_age: z.number().int().min(0).default(60),
});

/** The whole file. Cross-section rules live in the superRefine below. */
export const configSchema = z
  .strictObject({
    data_dir: z.string().min(1).default('./data'),
    server: server.default(server.parse({})),
    mail: mail.optional(),
    forms: z.array(form).default([]),
    site: site.optional(),
    blog: blog.optional(),
  })
  .superRefine((value, context) => {
    // Runs even when other keys are invalid (see reportAlongsideOtherProblems), so nothing here may assume
    // that a value has its declared type.
    const forms = Array.isArray(value.forms) ? value.forms : [];
    const seen = new Map<string, number>();
    forms.forEach((entry, index) => {
      if (entry === null || typeof entry !== 'object') return;
      const first = seen.get(entry.path);
      if (first !== undefined) {
        context.addIssue({ code: 'custom', path: ['forms', index, 'path'], message: `duplicates forms[${first}].path "${entry.path}"` });
      } else {
        seen.set(entry.path, index);
      }
      if (value.mail && !entry.to && !value.mail.to) {
        context.addIssue({ code: 'custom', path: ['forms', index, 'to'], message: 'is required when mail.to is not set (the owner address)' });
      }
    });
    if (forms.length > 0 && !value.mail) {
      context.addIssue({ code: 'custom', path: ['mail'], message: 'is required when forms are configured' });
    }
    if (forms.some((entry) => entry?.type === 'newsletter') && !value.server?.public_url) {
      context.addIssue({ code: 'custom', path: ['server', 'public_url'], message: 'is required when a newsletter form exists (confirmation links are built on it)' });
    }
    if (value.blog && !value.site) {
      context.addIssue({ code: 'custom', path: ['site'], message: 'is required when [blog] is configured' });
    }
    if (forms.length === 0 && !value.blog) {
      context.addIssue({ code: 'custom', path: [], message: 'nothing to serve: add [[forms]] and/or [blog]' });
    }
  }, reportAlongsideOtherProblems);

export type Config = z.output<typeof configSchema>;
export type FormConfig = Config['forms'][number];
export type FormType = FormConfig['type'];
export type MailConfig = NonNullable<Config['mail']>;
export type ServerConfig = Config['server'];
export type SiteConfig = NonNullable<Config['site']>;
export type BlogConfig = NonNullable<Config['blog']>;
export type ListenAddress = ServerConfig['listen'];
