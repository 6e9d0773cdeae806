// Every mail the newsletter sends to a person, as it leaves over SMTP, scored by SpamAssassin's local rules
// (`spamassassin -L -t`: no network test, no rule download): the confirmation, the welcome and a campaign mail each
// score under 2 points and carry List-Unsubscribe with the one-click List-Unsubscribe-Post of RFC 8058
// (docs/newsletter.md "Leaving the list"). SpamAssassin must be installed: a missing binary fails this test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createSmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { planCampaign, startCampaign, type CampaignPlan } from '../../src/newsletter/campaigns/campaign-plan.js';
import type { Mailer } from '../../src/ports.js';
import { createTestFormsService, TEST_ORIGIN, type TestFormsService } from '../support/forms-app.js';
import { rawHeaderValues, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const PUBLIC_URL = 'https://forms.example.com';
const EMAIL = 'ada@example.org';
const URLENCODED = 'application/x-www-form-urlencoded';
const POST = {
  slug: 'spring-notes',
  lang: 'en',
  title: 'Notes from the spring garden',
  url: 'https://blog.example.com/blog/spring-notes',
  html: '<p>The first tulips opened this week, a little later than last year.</p><p>We planted <a href="/blog/beans">the beans</a> on Sunday.</p>',
  date: '2026-03-01T00:00:00Z',
};

/** SpamAssassin's score of `raw`, from the X-Spam-Status header it adds, with the rules that fired. */
function scoreOf(raw: string): Promise<{ score: number; status: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('spamassassin', ['-L', '-t'], { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout) => {
      if (error) return reject(new Error(`spamassassin could not score the mail (is the spamassassin package installed?): ${error.message}`));
      const status = rawHeaderValues(stdout, 'X-Spam-Status')[0] ?? '';
      const match = /score=(-?[0-9.]+)/.exec(status);
      if (!match) return reject(new Error(`no score in spamassassin's output: ${stdout.slice(0, 500)}`));
      resolve({ score: Number(match[1]), status });
    });
    child.stdin!.end(raw);
  });
}

describe('the newsletter mails and SpamAssassin', () => {
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  let forms: TestFormsService;
  let layoutDir: Awaited<ReturnType<typeof createTempDir>>;

  before(async () => {
    // The mails are scored in the list's layout (docs/newsletter.md "Layouts"), as a site would send them.
    layoutDir = await createTempDir('layout');
    const layout = path.join(layoutDir.dir, 'letter.md');
    await writeFile(layout, '**The Garden Letter**: notes from a small garden in Lyon.\n\n{{content}}\n\nYou can reply to this letter: we read every answer.\n');
    smtp = await startSmtpServer();
    mailer = createSmtpMailer({ host: smtp.host, port: smtp.port, secure: false });
    forms = await createTestFormsService({
      forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0 }],
      extra: {
        server: { public_url: PUBLIC_URL },
        site: { title: 'The Garden Letter', base_url: 'https://blog.example.com' },
        mail: { from: 'The Garden Letter <letters@example.com>', transport: 'smtp', smtp: { host: smtp.host, port: smtp.port, secure: false }, queue: true, send_per_minute: 0 },
        newsletter: {
          lists: [{ id: 'newsletter', name: 'The Garden Letter', layout, colors: { link: '#2f6f3e' } }],
          automations: [
            {
              id: 'hello',
              type: 'welcome',
              list: 'newsletter',
              subject: 'Welcome to the Garden Letter',
              body: 'Hello, and thank you for subscribing to **{{list}}**.\n\nOnce a month we write about what grows, what failed and what we learned. The [archive](https://blog.example.com/blog/) has every letter so far.',
            },
          ],
        },
      },
      deps: { mailer, clock: Date.now },
    });
  });
  after(async () => {
    await forms.close();
    await mailer.close();
    await smtp.close();
    await layoutDir.remove();
  });

  const received = (what: string, subject: string) => smtp.waitForMessage(what, (message) => message.parsed.subject === subject);

  async function assertPasses(message: ReceivedMessage): Promise<void> {
    const unsubscribe = rawHeaderValues(message.raw, 'List-Unsubscribe');
    assert.equal(unsubscribe.length, 1, `${message.parsed.subject}: one List-Unsubscribe`);
    assert.match(unsubscribe[0]!, /^<https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=[^>]+>$/);
    assert.deepEqual(rawHeaderValues(message.raw, 'List-Unsubscribe-Post'), ['List-Unsubscribe=One-Click']);
    const { score, status } = await scoreOf(message.raw);
    assert.ok(score < 2, `${message.parsed.subject} scores ${score}: ${status}`);
  }

  it('scores the confirmation, the welcome and a campaign mail under 2, each with the unsubscribe headers', async () => {
    const signup = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': URLENCODED }, payload: `email=${encodeURIComponent(EMAIL)}` });
    assert.equal(signup.statusCode, 200);
    const confirmation = await received('the confirmation', 'Please confirm your newsletter subscription');
    const token = /\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(confirmation.parsed.text ?? '')?.[1];
    assert.ok(token);
    assert.equal((await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${token}` })).statusCode, 200);
    const welcome = await received('the welcome', 'Welcome to the Garden Letter');

    const store = createCampaignFiles(campaignsDirOf(forms.dataDir));
    const sources = {
      lists: forms.config.newsletter.lists,
      findPost: (slug: string) => (slug === POST.slug ? POST : undefined),
      readSubscribers: (log: { path: string; subscribers: string }) => forms.core.newsletter.listSubscribers(log),
      store,
      site: { title: 'The Garden Letter', baseUrl: 'https://blog.example.com' },
    };
    const plan = (await planCampaign(sources, { list: 'newsletter', slug: POST.slug })) as CampaignPlan;
    const started = await startCampaign(store, plan, { resend: false, now: Date.now(), randomHex: 'abcd' });
    assert.ok('started' in started);
    forms.core.campaigns!.wake();
    const campaign = await received('the campaign mail', POST.title);
    await waitFor('the campaign to finish', async () => ((await store.readJournal(started.started.id)).some((line) => 'finished_at' in line) ? true : undefined));

    for (const message of [welcome, campaign]) {
      assert.match(String(message.parsed.html), /notes from a small garden in Lyon/, 'in the list\u2019s layout');
      assert.match(message.parsed.text ?? '', /notes from a small garden in Lyon/, 'the plain-text part too');
    }
    for (const message of [confirmation, welcome, campaign]) await assertPasses(message);
  });
});
