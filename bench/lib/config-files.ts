// The config.toml files the benches start postbox with (docs/configuration.md), listening on port 0.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';

/** The contact form both forms benches post to; rate limiting is off so that every request reaches the path measured. */
export const FORM_PATH = '/contact';
/** The site the contact form allows (browsers send it as Origin). */
export const BENCH_ORIGIN = 'https://bench.example';

/** Writes `table` as `<dir>/<name>` (TOML) with data_dir `<dir>/data`; returns the file's path. */
function writeConfig(dir: string, name: string, table: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, stringify({ data_dir: path.join(dir, 'data'), ...table }));
  return file;
}

/** A blog-only configuration serving `contentDir`; returns the file's path. */
export function writeBlogConfig(dir: string, contentDir: string): string {
  return writeConfig(dir, 'blog.toml', {
    site: {
      title: 'Bench Blog',
      description: 'A generated corpus for the benchmarks',
      base_url: 'https://bench.example',
      language: 'en',
      author: 'Bench Author',
    },
    blog: { listen: '127.0.0.1:0', content_dir: contentDir, cache_max_age: 60 },
  });
}

/** A forms-only configuration delivering over SMTP to 127.0.0.1:`smtpPort`; returns the file's path. */
export function writeFormsConfig(dir: string, smtpPort: number): string {
  return writeConfig(dir, 'forms.toml', {
    server: { listen: '127.0.0.1:0' },
    mail: {
      transport: 'smtp',
      from: 'Bench Forms <forms@bench.example>',
      to: 'owner@bench.example',
      smtp: { host: '127.0.0.1', port: smtpPort, secure: false },
    },
    forms: [
      { path: FORM_PATH, type: 'contact', allowed_origins: [BENCH_ORIGIN], rate_limit_per_hour: 0, receipt: true },
    ],
  });
}

/** The newsletter form a campaign bench sends to, and the envelope sender of its mails (mail.from). */
export const NEWSLETTER_PATH = '/newsletter';
export const CAMPAIGN_SENDER = 'news@bench.example';

/**
 * Forms and blog for a campaign: a newsletter form whose subscribers are `data/subscribers.jsonl`, mail over SMTP
 * to 127.0.0.1:`smtpPort` with the sending rate limit lifted, the blog over `contentDir`; returns the file's path.
 */
export function writeCampaignConfig(dir: string, smtpPort: number, contentDir: string): string {
  return writeConfig(dir, 'campaign.toml', {
    server: { listen: '127.0.0.1:0', public_url: 'https://forms.bench.example' },
    mail: {
      transport: 'smtp',
      from: `Bench News <${CAMPAIGN_SENDER}>`,
      to: 'owner@bench.example',
      send_per_minute: 0,
      smtp: { host: '127.0.0.1', port: smtpPort, secure: false },
    },
    forms: [{ path: NEWSLETTER_PATH, type: 'newsletter', allowed_origins: [BENCH_ORIGIN], subscribers: 'subscribers.jsonl' }],
    site: { title: 'Bench Blog', base_url: BENCH_ORIGIN },
    blog: { listen: '127.0.0.1:0', content_dir: contentDir },
  });
}
