// A campaign pausing itself for its bounces (docs/bounces.md "Suppression"), run by the real campaign feeder through
// the queue on disk, its hard bounces reported through the policy as they would come back from a mailbox: past 5 %
// hard bounces it pauses, but never before 100 mails were sent, saying why in its journal and its progress; "Resume"
// lets it finish, its rates counted afresh; 5 % exactly never pauses it.
import assert from 'node:assert/strict';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { progressOf, type JournalLine } from '../../src/newsletter/campaigns/campaign.js';
import { useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const FORM = { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' };
const ID = '20261123T120000Z-abcd';

describe('a campaign and its bounces', () => {
  const start = useTestFormsService();
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A campaign to `count` subscribers, of whom those `bouncing` picks bounce hard as soon as their mail is sent. */
  async function campaignWith(count: number, bouncing: (index: number) => boolean): Promise<{ forms: TestFormsService; addresses: string[] }> {
    const temp = await createTempDir('campaign-bounces');
    cleanups.push(temp.remove);
    const addresses = Array.from({ length: count }, (_, index) => `reader${index}@example.org`);
    const line = (email: string) => `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), addresses.map(line).join(''));
    const forms = await start({
      forms: [FORM],
      dataDir: temp.dir,
      extra: { server: { public_url: 'https://forms.example.com' }, mail: { queue: true, send_per_minute: 0, bounces: { address: 'bounces@example.com' } } },
    });
    const bounced = new Set(addresses.filter((_, index) => bouncing(index)));
    forms.mailer.beforeSend = async (message) => {
      if (!bounced.has(message.to)) return;
      // The bounce comes back to the tagged envelope sender and is read from the mailbox.
      assert.equal(await forms.core.bounces!.sink.record({ source: 'imap', kind: 'hard', status: '5.1.1', sentTo: [message.envelopeFrom!], at: forms.clock() }), 'suppressed');
    };
    await createCampaignFiles(campaignsDirOf(temp.dir)).create(
      { id: ID, form: '/newsletter', slug: 'news', lang: 'en', subject: 'News', post_url: 'https://example.com/blog/news', created_at: '2026-11-23T12:00:00.000Z', recipients: count, resend: false },
      { subject: 'News', lang: 'en', html: '<p>News</p>', text: 'News' },
      addresses,
    );
    return { forms, addresses };
  }

  const journalOf = (forms: TestFormsService): Promise<JournalLine[]> => createCampaignFiles(campaignsDirOf(forms.dataDir)).readJournal(ID);
  const until = (forms: TestFormsService, what: string, line: (entry: JournalLine) => boolean) =>
    waitFor(what, async () => ((await journalOf(forms)).some(line) ? true : undefined), 30_000);

  it('pauses past 5 % hard bounces once 100 were sent, says why, and finishes once resumed', async () => {
    // The first ten bounce: 100 % of what was sent before the 100th mail, and still 10 % at it.
    const { forms } = await campaignWith(300, (index) => index < 10);
    await until(forms, 'the pause', (line) => 'paused_at' in line);
    await waitFor('the queue to empty', () => (forms.core.queue!.counts().pending === 0 ? true : undefined));
    const journal = await journalOf(forms);
    const pause = journal.find((line): line is Extract<JournalLine, { paused_at: string }> => 'paused_at' in line)!;
    assert.ok(pause.sent >= 100, `not before 100 were sent (paused at ${pause.sent})`);
    assert.equal(pause.hard, 10);
    assert.match(pause.reason, /^10 hard bounces for \d+ mails sent \(\d+(\.\d)? %, more than 5 %\)$/);
    const sentBefore = forms.mailer.sent.length;
    assert.ok(sentBefore < 300 && sentBefore <= pause.sent + 16, `the rest waits (${sentBefore} sent)`);
    assert.ok(!journal.some((line) => 'finished_at' in line));
    const progress = progressOf(journal, 300);
    assert.equal(progress.paused?.reason, pause.reason, 'the progress says it is paused, and why');
    assert.ok(forms.logs.lines().some((line) => line.event === 'campaign_paused' && line.level === 40));

    assert.equal(await forms.core.campaigns!.resume(ID, 'jane'), 'resumed');
    assert.equal(await forms.core.campaigns!.resume(ID, 'jane'), 'not_paused');
    await until(forms, 'the campaign to finish', (line) => 'finished_at' in line);
    const finished = await journalOf(forms);
    assert.equal(finished.filter((line) => 'paused_at' in line).length, 1, 'not paused again: the rates count from the resume');
    assert.deepEqual(
      finished.filter((line) => 'resumed_at' in line).map((line) => ({ ...line, resumed_at: undefined })),
      [{ resumed_at: undefined, by: 'jane', sent: sentBefore, hard: 10, complaint: 0 }],
    );
    const done = progressOf(finished, 300);
    assert.deepEqual({ sent: done.sent, skipped: done.skipped, paused: done.paused }, { sent: 300, skipped: 0, paused: undefined });
    assert.equal(forms.mailer.sent.length, 300, 'everybody once');
    assert.equal(await forms.core.campaigns!.resume('20261123T120000Z-ffff', 'jane'), 'unknown');
  });

  it('takes a reader who complained about a campaign mail off the list, in the subscriber log too', async () => {
    const { forms } = await campaignWith(3, () => false);
    await until(forms, 'the campaign to finish', (line) => 'finished_at' in line);
    const mail = forms.mailer.sent.find((message) => message.to === 'reader1@example.org')!;
    assert.equal(await forms.core.bounces!.sink.record({ source: 'ses', kind: 'complaint', sentTo: [mail.envelopeFrom!], at: forms.clock() }), 'suppressed');
    const form = forms.config.forms[0]!;
    assert.ok(form.type === 'newsletter');
    assert.equal(await forms.core.newsletter.isSubscribed(form, 'reader1@example.org'), false);
    assert.equal(await forms.core.newsletter.isSubscribed(form, 'reader2@example.org'), true);
    const log = (await readFile(path.join(forms.dataDir, 'subscribers.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { event: string; email: string });
    assert.deepEqual(log.at(-1) && { event: log.at(-1)!.event, email: log.at(-1)!.email }, { event: 'unsubscribed', email: 'reader1@example.org' });
    assert.ok(forms.logs.lines().some((line) => line.event === 'unsubscribed' && line.by === 'complaint'));
    assert.deepEqual(await createCampaignFiles(campaignsDirOf(forms.dataDir)).readJournal(ID).then((lines) => progressOf(lines, 3).sent), 3);
  });

  it('does not pause at 5 % exactly, and skips the suppressed addresses of a later campaign', async () => {
    // 5 of the first 100, spread out: never more than 5 % once 100 were sent.
    const { forms, addresses } = await campaignWith(100, (index) => index % 20 === 19);
    await until(forms, 'the campaign to finish', (line) => 'finished_at' in line);
    const journal = await journalOf(forms);
    assert.ok(!journal.some((line) => 'paused_at' in line));
    assert.equal(progressOf(journal, 100).sent, 100);
    assert.deepEqual(await forms.core.campaigns!.resume(ID, 'jane'), 'not_paused');
    // The same list again: the five suppressed addresses are skipped when their mail would be queued.
    const second = '20261123T130000Z-abcd';
    await createCampaignFiles(campaignsDirOf(forms.dataDir)).create(
      { id: second, form: '/newsletter', slug: 'more', lang: 'en', subject: 'More', post_url: 'https://example.com/blog/more', created_at: '2026-11-23T13:00:00.000Z', recipients: 100, resend: false },
      { subject: 'More', lang: 'en', html: '<p>More</p>', text: 'More' },
      addresses,
    );
    forms.core.campaigns!.wake();
    await waitFor('the second campaign to finish', async () => ((await createCampaignFiles(campaignsDirOf(forms.dataDir)).readJournal(second)).some((line) => 'finished_at' in line) ? true : undefined), 30_000);
    const progress = progressOf(await createCampaignFiles(campaignsDirOf(forms.dataDir)).readJournal(second), 100);
    assert.deepEqual({ sent: progress.sent, skipped: progress.skipped }, { sent: 95, skipped: 5 });
    assert.equal(forms.logs.lines().filter((line) => line.event === 'mail_suppressed' && line.mail === 'newsletter').length, 5);
  });
});
