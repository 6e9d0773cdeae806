// The short summary `postbox check` prints (docs/configuration.md "How the file is read").
import { fileTransportNotice } from './mail/outbox-dir.js';
import type { Config, MailConfig } from './config/config.js';

/** One line per service and form, as a site owner would want to confirm them. */
export function describeConfig(config: Config): string {
  const lines: string[] = [`data_dir: ${config.data_dir}`];
  if (config.forms.length > 0) {
    const { host, port } = config.server.listen;
    if (config.mail) lines.push(`mail: ${describeMail(config.mail, config.data_dir)}`);
    lines.push(`forms service on ${host}:${port}:`);
    for (const form of config.forms) {
      const extras = [
        form.rate_limit_per_hour === 0 ? 'no rate limit' : `${form.rate_limit_per_hour}/hour`,
        form.type !== 'newsletter' && form.telegram ? 'telegram' : '',
        // The URL may carry a secret path (Slack, Discord), so only the shape is shown.
        form.type !== 'newsletter' && form.webhook ? `webhook (${form.webhook.format})` : '',
        form.type !== 'newsletter' && form.archive ? `archive ${form.archive}` : '',
        form.redirect_url ? `redirect ${form.redirect_url}` : '',
      ].filter(Boolean);
      lines.push(`  ${form.path} (${form.type}), origins: ${form.allowed_origins.join(', ') || 'none'}; ${extras.join(', ')}`);
    }
  }
  if (config.blog) {
    const { host, port } = config.blog.listen;
    lines.push(`blog service on ${host}:${port}, posts from ${config.blog.content_dir}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeMail(mail: MailConfig, dataDir: string): string {
  if (mail.transport === 'file') return fileTransportNotice(dataDir);
  const { host, port, secure } = mail.smtp;
  return `sent through the SMTP server ${host.includes(':') ? `[${host}]` : host}:${port} (${secure ? 'implicit TLS' : 'STARTTLS when offered'})`;
}
