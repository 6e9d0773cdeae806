// The order of a campaign's journal: the finished line comes after every recipient's outcome. A store whose
// outcome lines take a while to write (a slow disk, or PostgreSQL committing two inserts in flight in either
// order) must not see the campaign finished before them. The feeder and the ledger run on fake time.
import { formListsOf } from '../../../src/newsletter/lists.js';
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import { createCampaignFeeder, type CampaignFeeder } from '../../../src/newsletter/campaigns/campaign-feeder.js';
import { createCampaignLedger } from '../../../src/newsletter/campaigns/campaign-ledger.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import type { NewsletterForm } from '../../../src/config/config.js';
import type { OutgoingMessage } from '../../../src/queue/outgoing.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { createFakeTimer } from '../../support/fake-timers.js';
import { captureLogs } from '../../support/log-capture.js';
import { createTempDir } from '../../support/temp-dir.js';

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };
const ID = '20261123T120000Z-abcd';
const FORM = { path: '/newsletter', type: 'newsletter', list: 'newsletter', subscribers: 'newsletter-subscribers.jsonl' } as NewsletterForm;
const LIST = formListsOf([FORM])[0]!;
const ADDRESSES = Array.from({ length: 12 }, (_, index) => `reader${index}@example.org`);
const REQUEST: CampaignRequest = { id: ID, form: '/newsletter', slug: 'a-new-post', lang: 'en', subject: BODY.subject, post_url: 'https://example.com/blog/a-new-post', created_at: '2026-11-23T12:00:00.000Z', recipients: ADDRESSES.length, resend: false };

describe('a campaign journal', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('has the finished line after every outcome, however long an outcome line takes to write', async () => {
    const temp = await createTempDir('campaign-journal');
    cleanups.push(temp.remove);
    const timers = createFakeTimer();
    const files = timers.track(createCampaignFiles(campaignsDirOf(temp.dir)));
    await files.create(REQUEST, BODY, ADDRESSES);
    // An outcome line takes 40 ms to write; every other line is written at once.
    const store: CampaignStore = {
      ...files,
      append: async (id: string, line: JournalLine) => {
        if ('r' in line) await new Promise<void>((resolve) => timers.setTimeout(resolve, 40));
        await files.append(id, line);
      },
    };
    const ledger = createCampaignLedger({ store, listOf: (key) => (key === LIST.log.path ? LIST : undefined), isSubscribed: async () => true, timers });
    let sent = 0;
    const feeder: CampaignFeeder = createCampaignFeeder({
      store,
      ledger,
      // Each mail is sent a turn after it was queued, and the ledger told.
      enqueue: async (messages: readonly OutgoingMessage[]) => {
        for (const message of messages) {
          sent += 1;
          void nextTurn().then(() => ledger.settled({ id: `m${sent}`, createdAt: timers.now(), message }, 'sent'));
        }
      },
      pendingMessages: async () => [],
      listOf: (key) => (key === LIST.log.path ? LIST : undefined),
      mailFor: async (_list, email, body) => ({ from: 'news@example.com', to: email, subject: body.subject, text: body.text, autoSubmitted: 'auto-generated' }),
      sendPerMinute: 0,
      clock: timers.now,
      timers,
      logger: captureLogs().logger,
      pollIntervalMs: 20,
    });
    cleanups.push(() => feeder.stop());
    feeder.start();
    let lines: JournalLine[] = [];
    for (let step = 0; step < 20 && !lines.some((line) => 'finished_at' in line); step += 1) {
      await timers.advance(40);
      lines = await files.readJournal(ID);
    }
    assert.equal(sent, ADDRESSES.length);
    const finishedAt = lines.findIndex((line) => 'finished_at' in line);
    assert.ok(finishedAt > 0, 'the campaign finished');
    const outcomes = lines.slice(0, finishedAt).filter((line) => 'r' in line);
    assert.equal(outcomes.length, ADDRESSES.length, 'every outcome is written before the campaign is finished');
  });
});
