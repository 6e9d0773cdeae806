// The short summary `postbox check` prints (docs/configuration.md "How the file is read").
import { fileTransportNotice } from '../adapters/mail/outbox-dir.js';
import { adminListenOf, adminWarnings } from '../admin/example-user.js';
import { postgresUrlOf, type Config, type MailConfig, type SpamConfig } from '../config/config.js';
import type { BlogGitConfig } from '../config/blog-git.js';

/** One line per service and form, as a site owner would want to confirm them. */
export function describeConfig(config: Config): string {
  const lines: string[] = [`data_dir: ${config.data_dir}`];
  // The URL may carry a password: only where the records live is shown.
  const postgres = postgresUrlOf(config);
  if (postgres) lines.push(`state: records (archives, newsletter, mail queue, campaigns, admin sessions) in PostgreSQL at ${postgresPlaceOf(postgres)}`);
  if (config.forms.length > 0) {
    const { host, port } = config.server.listen;
    if (config.mail) lines.push(`mail: ${describeMail(config.mail, config.data_dir)}`);
    lines.push(`forms service on ${host}:${port}:`);
    // The URL may carry a password: only where the buckets live is shown.
    if (config.rate_limit.backend === 'redis') lines.push(`rate limits: shared in Redis at ${redisHostOf(config.rate_limit.url!)}`);
    for (const form of config.forms) {
      const extras = [
        form.rate_limit_per_hour === 0 ? 'no rate limit' : `${form.rate_limit_per_hour}/hour`,
        form.type !== 'newsletter' && form.telegram ? 'telegram' : '',
        // The URL may carry a secret path (Slack, Discord), so only the shape is shown.
        form.type !== 'newsletter' && form.webhook ? `webhook (${form.webhook.format})` : '',
        form.type !== 'newsletter' && form.archive ? `archive ${form.archive}` : '',
        form.redirect_url ? `redirect ${form.redirect_url}` : '',
        form.spam.proof_of_work ? 'proof of work' : '',
        spamRulesOf(form.spam),
      ].filter(Boolean);
      lines.push(`  ${form.path} (${form.type}), origins: ${form.allowed_origins.join(', ') || 'none'}; ${extras.join(', ')}`);
    }
    // One line for every form without it, not one per form: a recommendation, not a problem.
    const withoutWork = config.forms.filter((form) => !form.spam.proof_of_work).map((form) => form.path);
    if (withoutWork.length > 0) {
      lines.push(`recommended: [forms.spam] proof_of_work = true for ${withoutWork.join(', ')}: a honeypot and a rate limit stop few bots today (docs/spam.md)`);
    }
    if (config.forms.some((form) => form.type !== 'newsletter' && form.attachments !== undefined)) {
      const { storage } = config;
      // The endpoint's host alone: the bucket's address, never a key.
      lines.push(storage.kind === 's3' ? `attachments in the S3 bucket ${storage.bucket} at ${new URL(storage.endpoint!).host} (prefix "${storage.prefix}")` : `attachments in ${config.data_dir}/attachments/`);
      if (!config.server.public_url) lines.push('warning: forms take files but [server] public_url is not set: the links in mails are relative (docs/attachments.md "Links")');
    }
    const unscanned = config.forms.filter((form) => form.type !== 'newsletter' && form.attachments?.scan === false).map((form) => form.path);
    if (unscanned.length > 0) lines.push(`warning: ${unscanned.join(', ')} deliver attachments without a virus scan ([forms.attachments] scan = false, docs/attachments.md)`);
  }
  // docs/newsletter.md "Automations": posts are mailed by a service with the blog and the mail queue.
  const postAutomations = config.newsletter.automations.filter((automation) => automation.type !== 'welcome').map((automation) => automation.id);
  if (postAutomations.length > 0 && (!config.blog || !config.site || !config.mail?.queue)) {
    lines.push(`warning: the automations ${postAutomations.join(', ')} never run: mailing posts needs [blog], [site] and [mail] queue = true (docs/newsletter.md)`);
  }
  if (config.blog) {
    const { host, port } = config.blog.listen;
    lines.push(`blog service on ${host}:${port}, posts from ${config.blog.content_dir}${describeGit(config.blog.git)}`);
    const activitypub = config.blog.activitypub;
    if (config.blog.media_storage === 's3') lines.push(`uploaded blog images in the S3 bucket ${config.storage.bucket} under "media/" (docs/blog.md "Media in storage")`);
    if (activitypub.enabled) lines.push(`followed from the fediverse as @${activitypub.username}@${new URL(config.blog.public_url).host} (docs/activitypub.md)`);
  }
  if (config.admin) {
    const { host, port } = adminListenOf(config);
    const names = config.admin.users.map((user) => user.name).join(', ');
    lines.push(`admin at ${host.includes(':') ? `[${host}]` : host}:${port}/admin, users: ${names}; ${config.admin.secure_cookies ? 'secure cookies' : 'cookies also over plain http'}`);
    for (const warning of adminWarnings(config)) lines.push(`warning: ${warning}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The content rules and captcha of a form, in a few words; '' when none is on. */
function spamRulesOf(spam: SpamConfig): string {
  const rules = [
    spam.max_links === undefined ? '' : `at most ${spam.max_links} links`,
    spam.block_disposable ? 'no disposable addresses' : '',
    spam.languages ? `languages ${spam.languages.join(', ')}` : '',
    spam.blocked_words.length > 0 ? `${spam.blocked_words.length} blocked words` : '',
    spam.captcha ? spam.captcha.provider : '',
  ].filter(Boolean);
  return rules.length === 0 ? '' : `spam: ${rules.join(', ')} (${spam.action})`;
}

/** `[blog.git]` in a few words: where commits go, never the remote's user or token. */
function describeGit(git: BlogGitConfig | undefined): string {
  if (!git?.enabled) return '';
  if (!git.remote) return ', each /admin change a git commit (no remote)';
  const pull = git.pull_seconds === 0 ? 'never fetched' : `fetched every ${git.pull_seconds} s`;
  return `, each /admin change a git commit pushed to ${remotePlaceOf(git.remote)} (${git.branch}, ${pull})`;
}

/** A git remote without its credentials: the host and path of a URL, the host of an scp-like address, or the folder. */
function remotePlaceOf(remote: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote)) {
    const url = new URL(remote);
    return `${url.host}${url.pathname}`;
  }
  const scp = /^(?:[^@]+@)?([^:/]+):(.*)$/.exec(remote);
  return scp ? `${scp[1]}:${scp[2]}` : remote;
}

function redisHostOf(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '6379'}`;
}

/** Where a PostgreSQL url points (host:port/database), never its user or password. */
export function postgresPlaceOf(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname || 'localhost'}:${port || '5432'}${pathname.length > 1 ? pathname : ''}`;
}

function describeMail(mail: MailConfig, dataDir: string): string {
  if (mail.transport === 'file') return fileTransportNotice(dataDir);
  const { host, port, secure } = mail.smtp;
  return `sent through the SMTP server ${host.includes(':') ? `[${host}]` : host}:${port} (${secure ? 'implicit TLS' : 'STARTTLS when offered'})`;
}

/** Where /admin listens. */
