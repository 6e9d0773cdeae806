// The order of a campaign's journal: the finished line comes after every recipient's outcome. A store whose
// outcome lines take a while to write (a slow disk, or PostgreSQL committing two inserts in flight in either
// order) must not see the campaign finished before them.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import { createCampaignRunner, type CampaignRunner } from '../../../src/newsletter/campaigns/campaign-runner.js';
import type { NewsletterForm } from '../../../src/config/config.js';
import type { OutgoingMessage, QueuedMessage } from '../../../src/queue/outgoing.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { captureLogs } from '../../support/log-capture.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const BODY = { subject: 'A new post', lang: 'en', html: '<p>Hello</p>', text: 'Hello' };
const ID = '20261123T120000Z-abcd';
const FORM = { path: '/newsletter', type: 'newsletter' } as NewsletterForm;
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
    const files = createCampaignFiles(campaignsDirOf(temp.dir));
    await files.create(REQUEST, BODY, ADDRESSES);
    let runner: CampaignRunner | undefined;
    const sendSoon = (queued: QueuedMessage) => setTimeout(() => void runner!.settled(queued, 'sent'), 1);
    runner = createCampaignRunner({
      // An outcome line takes 40 ms to write; every other line is written at once.
      store: {
        ...files,
        append: async (id: string, line: JournalLine) => {
          if ('r' in line) await delay(40);
          await files.append(id, line);
        },
      },
      enqueue: async (messages: readonly OutgoingMessage[]) => {
        messages.forEach((message, index) => sendSoon({ id: `m${index}`, createdAt: Date.now(), message }));
      },
      pendingMessages: async () => [],
      formOf: (path) => (path === FORM.path ? FORM : undefined),
      isSubscribed: async () => true,
      mailFor: async (_form, email, body) => ({ from: 'news@example.com', to: email, subject: body.subject, text: body.text, autoSubmitted: 'auto-generated' }),
      sendPerMinute: 0,
      clock: Date.now,
      logger: captureLogs().logger,
      pollIntervalMs: 20,
    });
    cleanups.push(() => runner!.stop());
    runner.start();
    const lines = await waitFor('the finished line', async () => {
      const journal = await files.readJournal(ID);
      return journal.some((line) => 'finished_at' in line) ? journal : undefined;
    });
    const outcomes = lines.slice(0, lines.findIndex((line) => 'finished_at' in line)).filter((line) => 'r' in line);
    assert.equal(outcomes.length, ADDRESSES.length, 'every outcome is written before the campaign is finished');
  });
});
