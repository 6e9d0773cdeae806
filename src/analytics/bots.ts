// Requests that are not a person viewing a page (docs/analytics.md "What is not counted"): crawlers and tools by
// their user agent, and pages loaded ahead of a click (prefetch and prerender). Pure.

/** Words of the user agents of crawlers, monitors, link previews and HTTP libraries, in lower case. */
const BOT_WORDS = [
  'bot',
  'crawl',
  'spider',
  'slurp',
  'preview',
  'facebookexternalhit',
  'headless',
  'lighthouse',
  'pagespeed',
  'phantomjs',
  'selenium',
  'puppeteer',
  'playwright',
  'curl',
  'wget',
  'python',
  'java/',
  'go-http-client',
  'node-fetch',
  'axios',
  'okhttp',
  'httpclient',
  'monitor',
  'uptime',
  'pingdom',
  'feedfetcher',
  'scrapy',
];
const BOT_PATTERN = new RegExp(BOT_WORDS.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'));

/** The request headers that tell a bot or a prefetch, in Node's lower case. */
export interface BotSigns {
  'user-agent'?: string;
  'sec-purpose'?: string;
  purpose?: string;
  'x-purpose'?: string;
  'x-moz'?: string;
}

/** Whether a request with `headers` comes from a bot or a prefetch: then it is not counted. */
export function isBotRequest(headers: BotSigns): boolean {
  const agent = headers['user-agent'];
  if (agent === undefined || agent.length < 10 || BOT_PATTERN.test(agent.toLowerCase())) return true;
  return [headers['sec-purpose'], headers.purpose, headers['x-purpose'], headers['x-moz']].some((value) => value !== undefined && /prefetch|prerender|preview/i.test(value));
}
