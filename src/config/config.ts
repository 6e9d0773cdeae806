// The loaded configuration as the code uses it: the schema's output with what the schema guarantees written
// into the types, so no code past the loader re-checks or casts. Forms are a union on `type` (a newsletter form
// has its subscriber log, link lifetime and confirmation URL; the others their archive, chat and webhook),
// `mail` a union on `transport` (SMTP settings exist exactly when they are used), and each form carries its
// owner address.
import path from 'node:path';
import { resolveRemote, type BlogGitConfig } from './blog-git.js';
import type { BouncesConfig } from './bounces.js';
import type { DkimConfig } from './dkim.js';
import type { SpamConfig } from './spam.js';
import { challengePathOf, confirmPathOf, unsubscribePathOf } from './form-clashes.js';
import type { MailLayout } from './mail-layouts.js';
import { PREFERENCES_PATH, resolveNewsletterLists, type NewsletterAutomation, type NewsletterList, type NewsletterSegment } from './newsletter-lists.js';
import type { ParsedConfig } from './schema.js';
import type { WebhookConfig } from './webhook.js';

export { challengePathOf, confirmPathOf, unsubscribePathOf };
export type { NewsletterAutomation, NewsletterList, NewsletterSegment, PostAutomation, SubscriberLogRef, WelcomeAutomation } from './newsletter-lists.js';
export type { LayoutColors, MailLayout } from './mail-layouts.js';
export { PREFERENCES_PATH };

import type { AttachmentsConfig } from './attachments.js';
type ParsedForm = ParsedConfig['forms'][number];
type ParsedMail = NonNullable<ParsedConfig['mail']>;

/** What every form has, whatever its type. */
interface FormCommon {
  path: string;
  /** The owner's address: the form's `to`, else `mail.to`. */
  to: string;
  allowed_origins: readonly string[];
  honeypot_field: string;
  rate_limit_per_hour: number;
  redirect_url?: string;
  require_name: boolean;
  require_message: boolean;
  name_min: number;
  name_max: number;
  message_min: number;
  message_max: number;
  receipt: boolean;
  services?: readonly string[];
  /** `[forms.spam]` (docs/spam.md): every rule off when the table is left out. */
  spam: SpamConfig;
  spam_keep_days: number;
}

export interface MessageForm extends FormCommon {
  type: 'contact' | 'feedback' | 'generic';
  archive?: string;
  telegram?: NonNullable<ParsedForm['telegram']>;
  webhook?: WebhookConfig;
  /** `[forms.attachments]` (docs/attachments.md). */
  attachments?: AttachmentsConfig;
}

export interface NewsletterForm extends FormCommon {
  type: 'newsletter';
  subscribers: string;
  confirm_ttl_hours: number;
  /** `<server.public_url><path>/confirm`: the confirmation link without its token. */
  confirm_url: string;
  /** `"link"`: GET redeems; `"button"`: GET shows a button and only POST redeems (docs/newsletter.md). */
  confirm: 'link' | 'button';
  /** `<server.public_url><path>/unsubscribe`: the unsubscribe link without its token. */
  unsubscribe_url: string;
  /** The id of the form's own list (docs/newsletter.md "Lists"). */
  list: string;
  /** The ids of the lists a visitor may tick; none when the form offers only its own. */
  lists: readonly string[];
}

export type FormConfig = MessageForm | NewsletterForm;
export type FormType = FormConfig['type'];

/** What every transport has; `dkim` holds the key itself, read from `private_key_file` when it was given so. */
type MailCommon = Omit<ParsedMail, 'transport' | 'smtp' | 'dkim'> & { dkim?: DkimConfig };
export type { BlogCommentsConfig } from './blog-comments.js';
export type { BlogActivityPubConfig } from './blog-activitypub.js';
export type { BlogGitConfig, BouncesConfig, DkimConfig, SpamConfig, WebhookConfig };
export type SmtpConfig = NonNullable<ParsedMail['smtp']>;
export type MailConfig = (MailCommon & { transport: 'smtp'; smtp: SmtpConfig }) | (MailCommon & { transport: 'file' });

export interface Config extends Omit<ParsedConfig, 'forms' | 'mail' | 'admin' | 'blog' | 'newsletter'> {
  forms: readonly FormConfig[];
  /** Every newsletter list: the forms' own lists first, then those declared without a form (docs/newsletter.md "Lists"). */
  newsletter: {
    lists: readonly NewsletterList[];
    /** `[[newsletter.segments]]`: saved filters over a list (docs/newsletter.md "Segments"). */
    segments: readonly NewsletterSegment[];
    /** `[[newsletter.automations]]`: mails sent on their own (docs/newsletter.md "Automations"). */
    automations: readonly NewsletterAutomation[];
    /** `<server.public_url>/newsletter/preferences`: the preference page without its token (docs/newsletter.md "Preferences"). */
    preferences_url: string;
  };
  mail: MailConfig | undefined;
  admin: AdminConfig | undefined;
  blog: BlogConfig | undefined;
}

/** [admin] with `secure_cookies` decided: as given, else whether the site (or the forms service) is on https. */
export type AdminConfig = Omit<NonNullable<ParsedConfig['admin']>, 'secure_cookies'> & { secure_cookies: boolean };
export type AdminUser = AdminConfig['users'][number];

export type ServerConfig = Config['server'];
export type SiteConfig = NonNullable<Config['site']>;
/** [blog] with `public_url` decided: as given, else site.base_url (where the blog API is reached from outside). */
export type BlogConfig = Omit<NonNullable<ParsedConfig['blog']>, 'public_url'> & { public_url: string };
export type ListenAddress = ServerConfig['listen'];

/**
 * Builds the Config from what the schema accepted (its cross-key rules have run, so what they require is
 * there); relative folders resolve against `baseDir`, the config file's folder. `dkim` is [mail.dkim] with its
 * key read (src/config/dkim.ts), when there is one.
 */
export function resolveConfig(parsed: ParsedConfig, baseDir: string, dkim?: DkimConfig, layouts?: ReadonlyMap<string, MailLayout>): Config {
  const { mail } = parsed;
  const publicUrl = parsed.server.public_url ?? '';
  const forms = parsed.forms.map((form) => resolveForm(form, mail?.to ?? '', publicUrl));
  const newsletterForms = forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  return {
    ...parsed,
    data_dir: path.resolve(baseDir, parsed.data_dir),
    blog: parsed.blog && {
      ...parsed.blog,
      content_dir: path.resolve(baseDir, parsed.blog.content_dir),
      public_url: parsed.blog.public_url ?? parsed.site?.base_url ?? '',
      // A remote that is a folder of this machine resolves like the other paths (docs/configuration.md "[blog.git]").
      git: parsed.blog.git && { ...parsed.blog.git, remote: parsed.blog.git.remote && resolveRemote(parsed.blog.git.remote, baseDir) },
    },
    mail: mail && resolveMail(mail, dkim),
    forms,
    newsletter: { lists: resolveNewsletterLists(parsed.newsletter, newsletterForms, layouts), segments: parsed.newsletter?.segments ?? [], automations: parsed.newsletter?.automations ?? [], preferences_url: `${publicUrl}${PREFERENCES_PATH}` },
    admin: parsed.admin && {
      ...parsed.admin,
      public_url: adminPublicUrlOf(parsed),
      secure_cookies: parsed.admin.secure_cookies ?? (adminPublicUrlOf(parsed) ?? parsed.site?.base_url ?? publicUrl).startsWith('https:'),
    },
  };
}

function resolveMail(mail: ParsedMail, dkim: DkimConfig | undefined): MailConfig {
  const { transport, smtp, dkim: _parsedDkim, ...rest } = mail;
  const common: MailCommon = dkim ? { ...rest, dkim } : rest;
  return transport === 'smtp' && smtp ? { ...common, transport, smtp } : { ...common, transport: 'file' };
}

function resolveForm(form: ParsedForm, defaultOwner: string, publicUrl: string): FormConfig {
  const { type, archive, telegram, webhook, attachments, subscribers, confirm_ttl_hours: ttlHours, confirm, to, list, lists, ...common } = form;
  const owner = to ?? defaultOwner;
  if (type === 'newsletter') {
    return {
      ...common,
      type,
      to: owner,
      subscribers: subscribers as string,
      confirm_ttl_hours: ttlHours as number,
      confirm_url: `${publicUrl}${confirmPathOf(form.path)}`,
      confirm: confirm ?? 'link',
      unsubscribe_url: `${publicUrl}${unsubscribePathOf(form.path)}`,
      list: list as string,
      lists: lists ?? [],
    };
  }
  return { ...common, type, to: owner, archive, telegram, webhook, attachments };
}

/**
 * Where /admin is reached from outside (docs/configuration.md "[admin]"): `[admin] public_url`, else the
 * `public_url` given for the service whose listener serves it; undefined when none is given (then the address a
 * request came to). Never site.base_url: the site is often served elsewhere than the listener.
 */
function adminPublicUrlOf(parsed: ParsedConfig): string | undefined {
  if (!parsed.admin) return undefined;
  return parsed.admin.public_url ?? (parsed.blog ? parsed.blog.public_url : parsed.server.public_url);
}

/** The service whose listener serves /admin: the blog's, else the forms service's (docs/admin.md). */
export function adminServiceOf(config: Pick<Config, 'blog' | 'admin'>): 'blog' | 'forms' | undefined {
  if (!config.admin) return undefined;
  return config.blog ? 'blog' : 'forms';
}

/**
 * The problem of a [blog] whose content_dir is not a folder (docs/configuration.md "[site] and [blog]"), as a
 * config problem at `blog.content_dir`; undefined when it is one or there is no [blog]. `postbox check` and
 * `serve` refuse such a file: a typo in the path would otherwise serve an empty blog without a word.
 */
export function contentDirProblem(config: Pick<Config, 'blog'>, isFolder: (folder: string) => boolean): { path: string; message: string } | undefined {
  if (!config.blog || isFolder(config.blog.content_dir)) return undefined;
  return { path: 'blog.content_dir', message: `is not a folder: ${config.blog.content_dir} does not exist (create it, or point content_dir at the posts)` };
}

/** The PostgreSQL URL when `[state] backend = "postgres"` keeps the records there; undefined with the files of data_dir. */
export function postgresUrlOf(config: Pick<Config, 'state'>): string | undefined {
  return config.state.backend === 'postgres' ? config.state.url : undefined;
}
