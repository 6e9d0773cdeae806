// The campaign feeder and ledger inside the forms service, through the real mail queue on disk: every subscriber gets one
// mail with their own unsubscribe link and the list headers, an address that left the list is skipped, and a
// campaign found half done goes on after the last recipient its journal or the queue knows of.
import assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { createQueueFiles, queueDirOf } from '../../../src/adapters/files/queue-files.js';
import { useTestFormsService } from '../../support/forms-app.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const start = useTestFormsService();
const FORM = { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' };
const BODY = { subject: 'A new post', lang: 'en', html: '<h1 style="margin:0">A new post</h1><p>Hello</p>', text: 'A NEW POST\n\nHello' };
const ID = '20261123T120000Z-abcd';

function requestFor(recipients: number): CampaignRequest {
  return { id: ID, form: '/newsletter', slug: 'a-new-post', lang: 'en', subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients, resend: false };
}

function subscribedLine(email: string): string {
  return `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2026-01-01T00:00:00Z', signed_up_at: '2026-01-01T00:00:00Z' })}\n`;
}

describe('the campaign feeder', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function dataDirWith(addresses: string[], journal: JournalLine[] = []): Promise<string> {
    const temp = await createTempDir('campaign');
    cleanups.push(temp.remove);
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), addresses.map(subscribedLine).join(''));
    const store = createCampaignFiles(campaignsDirOf(temp.dir));
    await store.create(requestFor(addresses.length), BODY, addresses);
    for (const line of journal) await store.append(ID, line);
    return temp.dir;
  }

  async function journalOf(dataDir: string): Promise<JournalLine[]> {
    return createCampaignFiles(campaignsDirOf(dataDir)).readJournal(ID);
  }

  const finished = (dataDir: string) =>
    waitFor('the campaign to finish', async () => ((await journalOf(dataDir)).some((line) => 'finished_at' in line) ? true : undefined));

  const withQueue = { server: { public_url: 'https://forms.example.com' }, mail: { queue: true, send_per_minute: 0 } };

  it('sends every subscriber one mail with their unsubscribe link, the list headers and Precedence: bulk', async () => {
    const addresses = Array.from({ length: 40 }, (_, index) => `reader${index}@example.org`);
    const dataDir = await dataDirWith(addresses);
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir });
    await finished(dataDir);
    const sent = forms.mailer.sent;
    assert.deepEqual(sent.map((mail) => mail.to).sort(), [...addresses].sort());
    const links = new Set<string>();
    for (const mail of sent) {
      assert.equal(mail.subject, 'A new post');
      assert.equal(mail.precedence, 'bulk');
      assert.match(mail.list!.unsubscribeUrl, /^https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=/);
      assert.ok(mail.text.includes(mail.list!.unsubscribeUrl), 'the link is in the text');
      assert.ok(mail.html!.includes('Hello'));
      links.add(mail.list!.unsubscribeUrl);
    }
    assert.equal(links.size, addresses.length, 'a link of their own for each');
    const journal = await journalOf(dataDir);
    assert.equal(journal.filter((line) => 'r' in line && line.s === 'sent').length, 40);
  });

  it('skips an address that left the list after the campaign was made', async () => {
    const addresses = ['a@example.org', 'b@example.org', 'c@example.org'];
    const dataDir = await dataDirWith(addresses);
    await appendFile(path.join(dataDir, 'subscribers.jsonl'), `${JSON.stringify({ event: 'unsubscribed', email: 'B@example.org', form: '/newsletter', at: '2026-11-23T12:00:01Z' })}\n`);
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir });
    await finished(dataDir);
    assert.deepEqual(forms.mailer.sent.map((mail) => mail.to).sort(), ['a@example.org', 'c@example.org']);
    assert.deepEqual((await journalOf(dataDir)).filter((line) => 'r' in line && line.s === 'skipped'), [{ r: 1, s: 'skipped' }]);
  });

  it('goes on after the last recipient its journal knows of, without mailing the earlier ones again', async () => {
    const addresses = Array.from({ length: 10 }, (_, index) => `reader${index}@example.org`);
    // Killed after 0-3 were sent and 5 skipped (4 was then in the queue, which sends it on its own): the
    // campaign goes on at 6.
    const journal: JournalLine[] = [{ started_at: 'x' }, { r: 0, s: 'sent' }, { r: 1, s: 'sent' }, { r: 2, s: 'sent' }, { r: 3, s: 'sent' }, { r: 5, s: 'skipped' }];
    const dataDir = await dataDirWith(addresses, journal);
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir });
    await finished(dataDir);
    assert.deepEqual(forms.mailer.sent.map((mail) => mail.to), addresses.slice(6));
    const text = await readFile(path.join(campaignsDirOf(dataDir), ID, 'journal.jsonl'), 'utf8');
    assert.match(text, /"finished_at"/);
  });

  it('skips a mail whose address left the list while it waited in the queue for a retry', async () => {
    const temp = await createTempDir('campaign');
    cleanups.push(temp.remove);
    const addresses = ['a@example.org', 'b@example.org'];
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), addresses.map(subscribedLine).join(''));
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir: temp.dir });
    let tries = 0;
    forms.mailer.beforeSend = async (message) => {
      if (message.to !== 'a@example.org') return;
      tries += 1;
      // The first try: the subscriber leaves by one-click POST while the server answers "try again later".
      const token = new URL(message.list!.unsubscribeUrl).searchParams.get('token')!;
      const response = await forms.app.inject({
        method: 'POST',
        url: `/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(response.statusCode, 200);
      throw Object.assign(new Error('try again later'), { responseCode: 421 });
    };
    await createCampaignFiles(campaignsDirOf(temp.dir)).create(requestFor(2), BODY, addresses);
    await finished(temp.dir);
    assert.equal(tries, 1, 'not tried again after the unsubscribe');
    assert.deepEqual(forms.mailer.sent.map((mail) => mail.to), ['b@example.org']);
    const outcomes = (await journalOf(temp.dir)).flatMap((line) => ('r' in line ? [line] : [])).sort((x, y) => x.r - y.r);
    assert.deepEqual(outcomes, [
      { r: 0, s: 'skipped' },
      { r: 1, s: 'sent' },
    ]);
  });

  it('counts a campaign mail removed from the queue as failed and goes on', async () => {
    const temp = await createTempDir('campaign');
    cleanups.push(temp.remove);
    const addresses = ['a@example.org', 'b@example.org', 'c@example.org'];
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), addresses.map(subscribedLine).join(''));
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir: temp.dir });
    forms.mailer.beforeSend = async (message) => {
      if (message.to !== 'a@example.org') return;
      // `postbox queue drop` from another process while the server answers "try again later".
      const queue = createQueueFiles(queueDirOf(temp.dir));
      const [waiting] = (await queue.listPending()).filter((pending) => pending.message.channel === 'mail' && pending.message.mail.to === 'a@example.org');
      assert.equal(await queue.drop(waiting!.id), 'pending');
      throw Object.assign(new Error('try again later'), { responseCode: 421 });
    };
    await createCampaignFiles(campaignsDirOf(temp.dir)).create(requestFor(3), BODY, addresses);
    await finished(temp.dir);
    assert.deepEqual(forms.mailer.sent.map((mail) => mail.to).sort(), ['b@example.org', 'c@example.org']);
    const outcomes = (await journalOf(temp.dir)).flatMap((line) => ('r' in line ? [line] : [])).sort((x, y) => x.r - y.r);
    assert.deepEqual(outcomes, [
      { r: 0, s: 'failed' },
      { r: 1, s: 'sent' },
      { r: 2, s: 'sent' },
    ]);
  });

  it('leaves an unreadable campaign aside and sends the next one', async () => {
    const temp = await createTempDir('campaign');
    cleanups.push(temp.remove);
    await appendFile(path.join(temp.dir, 'subscribers.jsonl'), subscribedLine('a@example.org'));
    const store = createCampaignFiles(campaignsDirOf(temp.dir));
    await store.create(requestFor(1), BODY, ['a@example.org']);
    await writeFile(path.join(campaignsDirOf(temp.dir), ID, 'body.json'), '{"subject":');
    const later = { ...requestFor(1), id: '20261123T130000Z-beef' };
    await store.create(later, BODY, ['a@example.org']);
    const forms = await start({ forms: [FORM], extra: withQueue, dataDir: temp.dir });
    await waitFor('the later campaign to finish', async () => ((await store.readJournal(later.id)).some((line) => 'finished_at' in line) ? true : undefined));
    assert.deepEqual(forms.mailer.sent.map((mail) => mail.to), ['a@example.org']);
    const aside = forms.logs.lines().filter((line) => line.event === 'campaign_set_aside');
    assert.deepEqual(aside.map((line) => [line.campaign, line.reason]), [[ID, 'unreadable']]);
  });
});
