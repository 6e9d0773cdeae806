// Values at the edges of every key: the odd ones that must still load, and the ones that would break the
// service at run time, which must be refused with their key path.
import assert from 'node:assert/strict';
import { ACCOUNTS_FILE, ACCOUNTS_LOCK_FILE, AUDIT_FILE } from '../../src/adapters/files/account-files.js';
import { ADMIN_SESSIONS_FILE } from '../../src/admin/sessions.js';
import { TRASH_FOLDER } from '../../src/admin/posts/trash.js';
import { NEWSLETTER_SECRET_FILE } from '../../src/newsletter/newsletter-secret.js';
import { campaignsDirOf } from '../../src/adapters/files/campaign-files.js';
import { bouncesDirOf } from '../../src/adapters/files/suppressions.js';
import { spamDirOf } from '../../src/adapters/files/spam-files.js';
import { commentsDirOf } from '../../src/adapters/files/comment-files.js';
import { queueDirOf } from '../../src/adapters/files/queue-files.js';
import { DRAFTS_FOLDER } from '../../src/adapters/files/drafts.js';
import path from 'node:path';
import { describe, it } from 'node:test';
import { stringify } from 'smol-toml';
import { RESERVED_DATA_NAMES } from '../../src/config/data-files.js';
import { LOAD_CACHE_FILE } from '../../src/blog/content/load-cache.js';
import { SEARCH_WORDS_FILE } from '../../src/blog/catalog/search-words-file.js';
import { CONFIRM_TTL_HOURS, MAX_CACHE_MAX_AGE, MAX_RATE_LIMIT_PER_HOUR } from '../../src/config/limits.js';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { PENDING_JOURNAL_FILE } from '../../src/newsletter/pending-store.js';
import { expiryOf, pendingEvent } from '../../src/newsletter/pending.js';
import { formatUtc } from '../../src/newsletter/mails.js';
import { RATE_LIMIT_SNAPSHOT_FILE } from '../../src/forms/rate-limits.js';
import { createRateLimiter } from '../../src/forms/rules/rate-limiter.js';
import { outboxDirOf } from '../../src/adapters/mail/outbox-dir.js';
import { composeServices } from '../../src/app/compose.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';

type Table = { [key: string]: unknown };

/** Every section, a contact form with Telegram and a newsletter form: each case changes one key of it. */
const BASE: Table = {
  data_dir: './data',
  server: { listen: '127.0.0.1:8080', public_url: 'https://forms.example.com' },
  mail: {
    transport: 'smtp',
    from: 'Forms <forms@example.com>',
    to: 'owner@example.com',
    smtp: { host: 'smtp.example.com', username: 'forms', password: 'secret' },
  },
  forms: [
    {
      path: '/contact',
      type: 'contact',
      allowed_origins: ['https://example.com'],
      services: ['Web design', 'Hosting'],
      archive: 'contact.jsonl',
      telegram: { bot_token: '123456:ABC-def_ghi', chat_id: '42' },
    },
    { path: '/news', type: 'newsletter', allowed_origins: ['https://example.com'] },
  ],
  site: { title: 'Example', base_url: 'https://example.com' },
  blog: { listen: '127.0.0.1:8081' },
};

/** BASE with `key` (a key path such as `forms[0].telegram.bot_token`) set to `value`, then `adjust`ed, loaded. */
function loadWith(key: string, value: unknown, adjust: (table: Table) => void = () => undefined): LoadResult {
  const config = structuredClone(BASE);
  const steps = key.split(/\.|(?=\[)/).map((step) => (step.startsWith('[') ? Number(step.slice(1, -1)) : step));
  let table = config as Record<string | number, unknown>;
  for (const step of steps.slice(0, -1)) table = table[step] as Record<string | number, unknown>;
  table[steps.at(-1) as string | number] = value;
  adjust(config);
  return parseConfigText(stringify(config), {}, '/srv/site');
}

describe('the base configuration of these tables', () => {
  it('loads', () => {
    const result = parseConfigText(stringify(BASE), {}, '/srv/site');
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  });
});

describe('odd but valid values load', () => {
  const cases: Array<[string, string, unknown]> = [
    ['one trusted proxy', 'server.trust_proxy_headers', true],
    ['two trusted proxies', 'server.trust_proxy_headers', 2],
    ['the most trusted proxies', 'server.trust_proxy_headers', 10],
    ['the widest IPv6 network', 'server.rate_limit_ipv6_prefix', 48],
    ['one bucket per IPv6 address', 'server.rate_limit_ipv6_prefix', 128],
    ['IPv6 loopback, a free port', 'server.listen', '[::1]:0'],
    ['a host name', 'server.listen', 'localhost:8080'],
    ['a fully qualified host name', 'server.listen', 'forms.internal.:8080'],
    ['every interface, the blog on another port', 'server.listen', '0.0.0.0:8080'],
    ['the blog on the same port of another address', 'blog.listen', '127.0.0.2:8080'],
    ['both services on a free port each', 'blog.listen', '127.0.0.1:0'],
    ['a public_url with a path and slashes', 'server.public_url', 'https://example.com/forms//'],
    ['a Unicode public_url', 'server.public_url', 'https://формы.example'],
    ['the smallest body', 'server.max_body_bytes', 1],
    ['the largest body', 'server.max_body_bytes', 64 * 1024 * 1024],
    ['a metrics token with punctuation', 'server.metrics_token', 'a-Z_0.9~+/=!#$'],
    ['a bare sender address', 'mail.from', 'forms@example.com'],
    ['a quoted sender name', 'mail.from', '"Forms, Example" <forms@example.com>'],
    ['several owners', 'mail.to', 'a@example.com, Owner <b@example.com>'],
    ['an owner at a domain in another script', 'mail.to', 'Jörg <joerg@bücher.example>'],
    ['an owner with a quoted local part', 'forms[0].to', '"sales team"@example.com'],
    ['an owner at a domain literal', 'forms[0].to', 'sales@[192.0.2.1]'],
    ['a sender with a comment for a name', 'mail.from', 'forms@example.com (Example Forms)'],
    ['an SMTP server by IPv4 address', 'mail.smtp.host', '192.0.2.25'],
    ['an SMTP server by IPv6 address', 'mail.smtp.host', '::1'],
    ['a form at the root path', 'forms[0].path', '/'],
    ['a path with dots inside segments', 'forms[0].path', '/v1.2/contact..us/.well'],
    ['a path under the newsletter that is not its confirmation path', 'forms[0].path', '/news/confirmed'],
    ['a path that only differs by a trailing slash', 'forms[0].path', '/news/'],
    ['a honeypot named like a field but in upper case', 'forms[0].honeypot_field', 'Name'],
    ['no rate limit', 'forms[0].rate_limit_per_hour', 0],
    ['the highest rate limit', 'forms[0].rate_limit_per_hour', MAX_RATE_LIMIT_PER_HOUR],
    ['the longest name', 'forms[0].name_max', 1000],
    ['no shortest name', 'forms[0].name_min', 0],
    ['the longest message', 'forms[0].message_max', 1_000_000],
    ['a Unicode redirect with query and fragment', 'forms[0].redirect_url', 'https://bücher.example/danke?von=форма#oben'],
    ['Unicode, mixed-case, default-port and IPv6 origins', 'forms[0].allowed_origins', ['https://bücher.example', 'HTTPS://Example.COM', 'https://example.com:443', 'http://[::1]:3000']],
    ['no allowed origins', 'forms[0].allowed_origins', []],
    ['services in any script', 'forms[0].services', ['Hébergement', '設計']],
    ['an archive named like a reserved name in part', 'forms[0].archive', 'outbox.jsonl'],
    ['an archive shared by two forms', 'forms[1]', { path: '/feedback', type: 'feedback', archive: 'contact.jsonl' }],
    ['a numeric chat id of a group', 'forms[0].telegram.chat_id', -1001234567890],
    ['a channel name as chat id', 'forms[0].telegram.chat_id', '@channel'],
    ['a Bot API with a path', 'forms[0].telegram.api_url', 'http://127.0.0.1:8081/telegram/'],
    ['the shortest link lifetime', 'forms[1].confirm_ttl_hours', CONFIRM_TTL_HOURS.min],
    ['a fractional link lifetime', 'forms[1].confirm_ttl_hours', 1.5],
    ['the longest link lifetime', 'forms[1].confirm_ttl_hours', CONFIRM_TTL_HOURS.max],
    ['two newsletters sharing a subscriber log', 'forms[0]', { path: '/other', type: 'newsletter', subscribers: 'news-subscribers.jsonl' }],
    ['a title in any script', 'site.title', 'Блог ✨ 日記'],
    ['a description over several lines', 'site.description', 'One\nTwo'],
    ['no caching', 'blog.cache_max_age', 0],
    ['the longest cache age', 'blog.cache_max_age', MAX_CACHE_MAX_AGE],
    ['a data folder with spaces', 'data_dir', './my data'],
    ['rate limits in a Redis nobody listens at (503 until it is there)', 'rate_limit', { backend: 'redis', url: 'redis://127.0.0.1:1' }],
    ['rate limits in Redis over TLS with a password and a database', 'rate_limit', { backend: 'redis', url: 'rediss://:secret@127.0.0.1:1/2' }],
    ['records in a PostgreSQL nobody listens at (503 until it is there)', 'state', { backend: 'postgres', url: 'postgres://postbox:secret@127.0.0.1:1/postbox' }],
    ['records in PostgreSQL written postgresql:// with options', 'state', { backend: 'postgres', url: 'postgresql://127.0.0.1:1/postbox?sslmode=disable' }],
  ];
  for (const [why, key, value] of cases) {
    it(`${why}: ${key} = ${JSON.stringify(value)}`, () => {
      const result = loadWith(key, value);
      assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    });
  }

  it('every one of them serves: a submission, the preflight, status routes and the blog answer without a 500', async () => {
    for (const [why, key, value] of cases) {
      await withTempDir('odd-config', async (dir) => {
        const result = loadWith(key, value, (table) => {
          // Local parts in place of what the table names: files in a temp folder, the file mail transport, a Bot
          // API on a closed loopback port (the message fails, the mail still goes out).
          table.data_dir = path.join(dir, String(table.data_dir));
          (table.blog as Table).content_dir = dir;
          (table.mail as Table).transport = 'file';
          for (const form of table.forms as Table[]) {
            const telegram = form.telegram as Table | undefined;
            if (telegram && key !== 'forms[0].telegram.api_url') telegram.api_url = 'http://127.0.0.1:9';
          }
        });
        assert.ok(result.ok, why);
        const logs = captureLogs();
        const composed = await composeServices(result.config, { logger: logs.logger, requestLog: logs.requestLog });
        try {
          const [forms, blog] = composed.services.map((service) => driveService(service));
          const unreachable = key === 'rate_limit' || key === 'state';
          for (const form of result.config.forms) {
            const origin = form.allowed_origins[0];
            const headers = origin === undefined ? {} : { origin };
            const statuses = [
              (await forms!.inject({ method: 'POST', url: form.path, headers, payload: { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello, a website please.' } })).statusCode,
              (await forms!.inject({ method: 'OPTIONS', url: form.path, headers })).statusCode,
            ];
            // 413 where the case is the smallest body, 503 where Redis or PostgreSQL is not there; never a 500.
            const expected = unreachable ? [200, 204, 303, 503] : [200, 204, 303, 413];
            assert.ok(statuses.every((status) => expected.includes(status)), `${why}: ${form.path} answered ${statuses}`);
          }
          assert.equal((await forms!.inject('/health')).statusCode, unreachable ? 503 : 200, why);
          for (const url of ['/api/blog/posts', '/api/blog/feed.xml', '/api/blog/sitemap.xml', '/health']) {
            assert.equal((await blog!.inject(url)).statusCode, 200, `${why}: ${url}`);
          }
          assert.deepEqual(logs.lines().filter((line) => line.event === 'internal_error'), [], why);
        } finally {
          await composed.close();
        }
      });
    }
  });

  it('loads trust_proxy_headers as a hop count', () => {
    for (const [value, hops] of [[false, 0], [true, 1], [3, 3]] as const) {
      const result = loadWith('server.trust_proxy_headers', value);
      assert.ok(result.ok);
      assert.equal(result.config.server.trust_proxy_headers, hops);
    }
  });
});

describe('values that would break the service are refused at their key path', () => {
  const contactAt = (formPath: string) => ({ path: formPath, type: 'contact' });
  const cases: Array<[string, string, unknown, string]> = [
    ['zero proxies is written false', 'server.trust_proxy_headers', 0, 'server.trust_proxy_headers'],
    ['Redis without its address', 'rate_limit', { backend: 'redis' }, 'rate_limit.url'],
    ['a Redis address that is not redis://', 'rate_limit', { backend: 'redis', url: 'http://127.0.0.1:6379' }, 'rate_limit.url'],
    ['an address for the buckets in memory', 'rate_limit', { url: 'redis://127.0.0.1:6379' }, 'rate_limit.url'],
    ['an unknown place for the buckets', 'rate_limit', { backend: 'memcached' }, 'rate_limit.backend'],
    ['PostgreSQL without its address', 'state', { backend: 'postgres' }, 'state.url'],
    ['a PostgreSQL address that is not postgres://', 'state', { backend: 'postgres', url: 'mysql://127.0.0.1:5432/postbox' }, 'state.url'],
    ['an address for records in files', 'state', { url: 'postgres://127.0.0.1:5432/postbox' }, 'state.url'],
    ['an unknown place for the records', 'state', { backend: 'sqlite' }, 'state.backend'],
    ['too many proxies', 'server.trust_proxy_headers', 11, 'server.trust_proxy_headers'],
    ['a fraction of a proxy', 'server.trust_proxy_headers', 1.5, 'server.trust_proxy_headers'],
    ['a word for a proxy count', 'server.trust_proxy_headers', 'yes', 'server.trust_proxy_headers'],
    ['an IPv6 network wider than /48', 'server.rate_limit_ipv6_prefix', 47, 'server.rate_limit_ipv6_prefix'],
    ['an IPv6 network past /128', 'server.rate_limit_ipv6_prefix', 129, 'server.rate_limit_ipv6_prefix'],
    ['no host', 'server.listen', ':8080', 'server.listen'],
    ['a wildcard host', 'server.listen', '*:8080', 'server.listen'],
    ['an IPv4 address out of range', 'server.listen', '999.1.1.1:8080', 'server.listen'],
    ['IPv4 in brackets', 'server.listen', '[192.0.2.1]:8080', 'server.listen'],
    ['a malformed IPv6 address', 'server.listen', '[::1::2]:8080', 'server.listen'],
    ['a host name with a space', 'server.listen', 'exa mple:8080', 'server.listen'],
    ['a port out of range', 'server.listen', 'localhost:65536', 'server.listen'],
    ['both services on one address', 'blog.listen', '127.0.0.1:8080', 'blog.listen'],
    ['the blog on the port forms hold on every interface', 'server.listen', '0.0.0.0:8081', 'blog.listen'],
    ['a public_url with a query', 'server.public_url', 'https://forms.example.com/?a=1', 'server.public_url'],
    ['a public_url with an empty query', 'server.public_url', 'https://forms.example.com/?', 'server.public_url'],
    ['a public_url with a fragment', 'server.public_url', 'https://forms.example.com/#x', 'server.public_url'],
    ['a public_url with a password', 'server.public_url', 'https://user:secret@forms.example.com', 'server.public_url'],
    ['an empty body limit', 'server.max_body_bytes', 0, 'server.max_body_bytes'],
    ['a body limit past 64 MiB', 'server.max_body_bytes', 64 * 1024 * 1024 + 1, 'server.max_body_bytes'],
    ['a body limit of 1e300', 'server.max_body_bytes', 1e300, 'server.max_body_bytes'],
    ['a metrics token with a space', 'server.metrics_token', 'two words', 'server.metrics_token'],
    ['a metrics token with a line break (an environment file)', 'server.metrics_token', 'token\n', 'server.metrics_token'],
    ['a metrics token a header cannot carry', 'server.metrics_token', 'jetón', 'server.metrics_token'],
    ['a sender that is no address', 'mail.from', 'Forms', 'mail.from'],
    ['two senders', 'mail.from', 'a@example.com, b@example.com', 'mail.from'],
    ['a sender with a header after a line break', 'mail.from', 'forms@example.com\nBcc: all@example.com', 'mail.from'],
    ['an owner that is no address', 'mail.to', 'owner', 'mail.to'],
    ['a sender written in words', 'mail.from', 'not an email', 'mail.from'],
    ['an owner with "at" for "@"', 'mail.to', 'owner at example.com', 'mail.to'],
    ['a form owner with "at" for "@"', 'forms[0].to', 'owner at example.com', 'forms[0].to'],
    ['an owner with a stray ">"', 'mail.to', 'owner@example.com>', 'mail.to'],
    ['an owner with two "@"', 'mail.to', 'owner@example@com', 'mail.to'],
    ['an owner without a domain', 'forms[0].to', 'Owner <owner@>', 'forms[0].to'],
    ['a second owner that is no address', 'forms[0].to', 'a@example.com, owner at example.com', 'forms[0].to'],
    ['a form owner with a line break', 'forms[0].to', 'sales@example.com\r\n', 'forms[0].to'],
    ['an SMTP host with a space', 'mail.smtp.host', 'smtp example.com', 'mail.smtp.host'],
    ['an empty SMTP host', 'mail.smtp.host', '', 'mail.smtp.host'],
    ['a path with a ".." segment', 'forms[0].path', '/a/../contact', 'forms[0].path'],
    ['a path ending in "."', 'forms[0].path', '/contact/.', 'forms[0].path'],
    ['the newsletter confirmation path', 'forms[0].path', '/news/confirm', 'forms[0].path'],
    ['a newsletter whose confirmation path is taken', 'forms[0]', { path: '/news/', type: 'newsletter' }, 'forms[1].path'],
    ['the health path', 'forms[0].path', '/health', 'forms[0].path'],
    ['the metrics path', 'forms[0]', contactAt('/metrics'), 'forms[0].path'],
    ['a honeypot on the name field', 'forms[0].honeypot_field', 'name', 'forms[0].honeypot_field'],
    ['a honeypot on the email field', 'forms[0].honeypot_field', 'email', 'forms[0].honeypot_field'],
    ['a honeypot on the service field', 'forms[0].honeypot_field', 'service', 'forms[0].honeypot_field'],
    ['a honeypot on the message field', 'forms[0].honeypot_field', 'message', 'forms[0].honeypot_field'],
    ['a rate limit past exact arithmetic', 'forms[0].rate_limit_per_hour', MAX_RATE_LIMIT_PER_HOUR + 1, 'forms[0].rate_limit_per_hour'],
    ['a rate limit of 1e300', 'forms[0].rate_limit_per_hour', 1e300, 'forms[0].rate_limit_per_hour'],
    ['a name longer than a subject should be', 'forms[0].name_max', 1001, 'forms[0].name_max'],
    ['a message longer than one mail should be', 'forms[0].message_max', 1_000_001, 'forms[0].message_max'],
    ['a padded service', 'forms[0].services', [' Hosting'], 'forms[0].services[0]'],
    ['an archive over the rate-limit snapshot', 'forms[0].archive', 'ratelimit-snapshot.json', 'forms[0].archive'],
    ['an archive over the pending journal', 'forms[0].archive', 'newsletter-pending.jsonl', 'forms[0].archive'],
    ['an archive over the outbox, in upper case', 'forms[0].archive', 'OUTBOX', 'forms[0].archive'],
    ['an archive with a NUL', 'forms[0].archive', 'a\u0000b.jsonl', 'forms[0].archive'],
    ['an archive in a subscriber log', 'forms[0].archive', 'news-subscribers.jsonl', 'forms[0].archive'],
    ['a subscriber log over the rate-limit snapshot', 'forms[1].subscribers', 'ratelimit-snapshot.json', 'forms[1].subscribers'],
    ['a bot token with a slash', 'forms[0].telegram.bot_token', '123/456', 'forms[0].telegram.bot_token'],
    ['a bot token with a question mark', 'forms[0].telegram.bot_token', '123?x=1', 'forms[0].telegram.bot_token'],
    ['a bot token with a space', 'forms[0].telegram.bot_token', '123 456', 'forms[0].telegram.bot_token'],
    ['a Bot API URL with a password (fetch refuses it)', 'forms[0].telegram.api_url', 'https://u:p@api.example.com', 'forms[0].telegram.api_url'],
    ['a Bot API URL with a query', 'forms[0].telegram.api_url', 'https://api.example.com/?x=1', 'forms[0].telegram.api_url'],
    ['a link lifetime of 1e300 hours (no date)', 'forms[1].confirm_ttl_hours', 1e300, 'forms[1].confirm_ttl_hours'],
    ['a link lifetime over a year', 'forms[1].confirm_ttl_hours', CONFIRM_TTL_HOURS.max + 1, 'forms[1].confirm_ttl_hours'],
    ['a link lifetime shorter than mail delivery', 'forms[1].confirm_ttl_hours', 0.1, 'forms[1].confirm_ttl_hours'],
    ['no link lifetime', 'forms[1].confirm_ttl_hours', 0, 'forms[1].confirm_ttl_hours'],
    ['a title with a line break', 'site.title', 'Example\nBcc: x@example.com', 'site.title'],
    ['a blank title', 'site.title', '   ', 'site.title'],
    ['a base_url with a query', 'site.base_url', 'https://example.com/?lang=en', 'site.base_url'],
    ['a cache age past 2^31 seconds', 'blog.cache_max_age', MAX_CACHE_MAX_AGE + 1, 'blog.cache_max_age'],
    ['a cache age of 1e21 (written "1e+21")', 'blog.cache_max_age', 1e21, 'blog.cache_max_age'],
    ['a data folder with a NUL', 'data_dir', './da\u0000ta', 'data_dir'],
    ['a posts folder with a NUL', 'blog.content_dir', './po\u0000sts', 'blog.content_dir'],
  ];
  for (const [why, key, value, problemPath] of cases) {
    it(`${why}: ${key} = ${JSON.stringify(value)} -> ${problemPath}`, () => {
      const result = loadWith(key, value);
      assert.equal(result.ok, false, 'expected the config to be refused');
      // A value may break two rules of its key (1e300 is no safe integer and too big): one path all the same.
      const paths = new Set(result.ok ? [] : result.problems.map((problem) => problem.path));
      assert.deepEqual([...paths], [problemPath]);
    });
  }

  it('refuses the addresses of a hasty first config, each at its key path with what is expected', () => {
    const result = loadWith('mail.from', 'not an email', (table) => {
      (table.mail as Table).to = 'owner at example.com';
      ((table.forms as Table[])[0] as Table).to = 'sales at example.com';
    });
    assert.ok(!result.ok);
    const expected = 'must be a mail address such as "owner@example.com" or "Name <owner@example.com>"';
    assert.deepEqual(result.problems, [
      { path: 'mail.from', message: expected },
      { path: 'mail.to', message: expected },
      { path: 'forms[0].to', message: expected },
    ]);
  });

  it('names the other form in a path clash', () => {
    const result = loadWith('forms[0].path', '/news/confirm');
    assert.ok(!result.ok);
    assert.deepEqual(result.problems, [{ path: 'forms[0].path', message: 'is the confirmation path of the newsletter form forms[1] ("/news")' }]);
    const unsubscribe = loadWith('forms[0].path', '/news/unsubscribe');
    assert.ok(!unsubscribe.ok);
    assert.deepEqual(unsubscribe.problems, [{ path: 'forms[0].path', message: 'is the unsubscribe path of the newsletter form forms[1] ("/news")' }]);
  });

  it('gives the bound and its reason', () => {
    const result = loadWith('forms[1].confirm_ttl_hours', 1e300);
    assert.ok(!result.ok);
    assert.deepEqual(result.problems, [{ path: 'forms[1].confirm_ttl_hours', message: 'must be at most 8760 (one year)' }]);
  });
});

describe('the bounds hold at run time', () => {
  it('the longest link lifetime still gives a date for the journal and the mail', () => {
    const now = Date.parse('2099-12-31T23:59:59Z');
    const expiresAt = expiryOf(now, CONFIRM_TTL_HOURS.max);
    assert.equal(formatUtc(expiresAt), '2100-12-31 23:59 UTC');
    const record = { hash: 'a'.repeat(64), email: 'a@example.com', form: '/news', createdAt: now, expiresAt };
    assert.doesNotThrow(() => pendingEvent(record));
  });

  it('the longest cache age is written in plain digits', () => {
    assert.match(String(MAX_CACHE_MAX_AGE), /^\d+$/);
  });

  it('the highest rate limit counts exactly after 28 years of uptime', () => {
    const start = Date.parse('2024-01-01T00:00:00Z');
    const limiter = createRateLimiter(MAX_RATE_LIMIT_PER_HOUR, undefined, start);
    const later = start + 28 * 365 * 24 * 3_600_000;
    for (let taken = 0; taken < MAX_RATE_LIMIT_PER_HOUR; taken += 1) assert.equal(limiter.take('k', later).allowed, true);
    assert.deepEqual(limiter.take('k', later), { allowed: false, retryAfterSeconds: 1 });
    // One token comes back every 360 ms.
    assert.equal(limiter.take('k', later + 360).allowed, true);
    assert.equal(limiter.take('k', later + 360).allowed, false);
  });

  it('the reserved names are the files the service keeps in data_dir', () => {
    const ownFiles = [
      RATE_LIMIT_SNAPSHOT_FILE,
      PENDING_JOURNAL_FILE,
      NEWSLETTER_SECRET_FILE,
      path.basename(outboxDirOf('/data')),
      path.basename(queueDirOf('/data')),
      path.basename(campaignsDirOf('/data')),
      path.basename(bouncesDirOf('/data')),
      path.basename(spamDirOf('/data')),
      path.basename(commentsDirOf('/data')),
      ADMIN_SESSIONS_FILE,
      TRASH_FOLDER,
      LOAD_CACHE_FILE,
      SEARCH_WORDS_FILE,
      ACCOUNTS_FILE,
      ACCOUNTS_LOCK_FILE,
      AUDIT_FILE,
      DRAFTS_FOLDER,
    ];
    assert.deepEqual([...RESERVED_DATA_NAMES].sort(), ownFiles.sort());
  });
});
