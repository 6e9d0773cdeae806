// The on_publish automation as `postbox serve` composes it (app/automations.ts), on fake time: the blog's content
// over a real content_dir, the mail core over data_dir files with its queue and campaign feeder, and a recording
// mailer. A scheduled post is mailed once to each subscriber when its time comes, with the list's unsubscribe
// headers; a post with `newsletter = false` is not. An automation to a list of [[newsletter.lists]] without a form
// mails that list's subscribers alone, each mail unsubscribing on the preference page with the list named.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openBackend } from '../../../src/app/open-backend.js';
import { composeMailCore } from '../../../src/app/compose.js';
import { composePostAutomations } from '../../../src/app/automations.js';
import { createBlogContent } from '../../../src/blog/blog-content.js';
import { createFakeTimer, type FakeTimer } from '../../support/fake-timers.js';
import { loadTestConfig } from '../../support/config.js';
import { captureLogs } from '../../support/log-capture.js';
import { createRecordingMailer } from '../../support/recording-mailer.js';
import { createTempDir } from '../../support/temp-dir.js';

const START = Date.UTC(2026, 0, 1, 12);
const HOUR = 3_600_000;
const READERS = ['ann@example.org', 'bob@example.org', 'cy@example.org'];

describe('on_publish as serve composes it', () => {
  let temp: { dir: string; remove: () => Promise<void> };
  let timers: FakeTimer;
  const closers: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    temp = await createTempDir('composed-on-publish');
    timers = createFakeTimer(START);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await temp.remove();
  });

  const post = (slug: string, title: string, date: number, extra = '') => `+++\ntitle = "${title}"\ndate = ${new Date(date).toISOString()}\n${extra}+++\n\n${title}: the body.\n`;

  /** Serve's composition over a content_dir with `posts` and a data_dir with the subscriber logs `logs` (file name: addresses). */
  const compose = async (posts: Record<string, string>, subscriberLogs: Record<string, { key: string; emails: readonly string[] }>, newsletter: Record<string, unknown>) => {
    const contentDir = path.join(temp.dir, 'posts');
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(contentDir, { recursive: true });
    await mkdir(dataDir, { recursive: true });
    for (const [name, text] of Object.entries(posts)) await writeFile(path.join(contentDir, name), text);
    for (const [file, { key, emails }] of Object.entries(subscriberLogs)) {
      const line = (email: string) => JSON.stringify({ event: 'subscribed', email, form: key, subscribed_at: '2025-12-01T00:00:00Z' });
      await writeFile(path.join(dataDir, file), `${emails.map(line).join('\n')}\n`);
    }
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        server: { public_url: 'https://forms.example.com' },
        mail: { from: 'news@example.com', to: 'owner@example.com', send_per_minute: 0 },
        forms: [{ path: '/newsletter', type: 'newsletter', subscribers: 'subscribers.jsonl' }],
        site: { title: 'Example', base_url: 'https://example.com' },
        blog: { content_dir: contentDir },
        newsletter,
      },
      temp.dir,
    );
    const logs = captureLogs();
    const opened = openBackend(config, logs.logger, timers.now);
    closers.push(() => opened.close());
    // Fake time waits for the stores' file I/O before it moves on.
    const backend = { ...opened, queue: timers.track(opened.queue), campaigns: timers.track(opened.campaigns), newsletter: timers.track(opened.newsletter), automations: timers.track(opened.automations) };
    const mailer = createRecordingMailer();
    const core = await composeMailCore(config, config.mail!, backend, { logger: logs.logger, clock: timers.now, timers, mailer, queue: { pollIntervalMs: 1_000 } });
    closers.push(() => core.close());
    const content = await createBlogContent({ site: config.site!, blog: config.blog! }, { logger: logs.logger, clock: () => new Date(timers.now()), timers, rescanIntervalMs: 0 });
    closers.push(() => content.close());
    const automations = composePostAutomations(config, backend, content, core, { clock: timers.now, timers, logger: logs.logger });
    assert.ok(automations, 'composed');
    closers.push(() => automations.stop());
    return { mailer };
  };

  it('mails a scheduled post once to each subscriber when its time comes, and not one with newsletter = false', async () => {
    const { mailer } = await compose(
      {
        'old.md': post('old', 'Old news', START - 24 * HOUR),
        'launch.md': post('launch', 'Launch day', START + HOUR),
        'quiet.md': post('quiet', 'A quiet one', START + HOUR, 'newsletter = false\n'),
      },
      { 'subscribers.jsonl': { key: '/newsletter', emails: READERS } },
      { automations: [{ id: 'posts', type: 'on_publish', list: 'newsletter', subject: 'New: {{title}}' }] },
    );

    await timers.advance(2 * 60_000);
    assert.equal(mailer.sent.length, 0, 'nothing before its time, and not the post already there');
    await timers.advance(HOUR);
    for (let step = 0; step < 600 && mailer.sent.length < READERS.length; step += 1) await timers.advance(1_000);
    await timers.advance(5 * 60_000);
    assert.deepEqual(mailer.sent.map((mail) => mail.to).sort(), [...READERS].sort());
    for (const mail of mailer.sent) {
      assert.equal(mail.subject, 'New: Launch day');
      assert.match(mail.text, /Launch day: the body\./);
      assert.match(mail.list?.unsubscribeUrl ?? '', /^https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=/);
    }
  });

  it('mails a list of [[newsletter.lists]] without a form, its mails unsubscribing on the preference page with the list named', async () => {
    const { mailer } = await compose(
      { 'launch.md': post('launch', 'Launch day', START + HOUR) },
      {
        'subscribers.jsonl': { key: '/newsletter', emails: ['own@example.org'] },
        'newsletter-list-weekly-subscribers.jsonl': { key: 'weekly', emails: READERS },
      },
      { lists: [{ id: 'weekly', name: 'The Weekly' }], automations: [{ id: 'weekly-posts', type: 'on_publish', list: 'weekly', subject: 'Weekly: {{title}}' }] },
    );
    await timers.advance(HOUR + 2 * 60_000);
    for (let step = 0; step < 600 && mailer.sent.length < READERS.length; step += 1) await timers.advance(1_000);
    await timers.advance(5 * 60_000);
    assert.deepEqual(mailer.sent.map((mail) => mail.to).sort(), [...READERS].sort(), 'the list alone, not the form’s');
    for (const mail of mailer.sent) {
      assert.equal(mail.subject, 'Weekly: Launch day');
      assert.match(mail.list?.unsubscribeUrl ?? '', /^https:\/\/forms\.example\.com\/newsletter\/preferences\?token=[^&]+&list=weekly$/);
      assert.equal(mail.list?.id, 'weekly.forms.example.com');
      assert.ok(mail.text.includes(mail.list!.unsubscribeUrl), 'the link is in the text');
    }
  });
});
