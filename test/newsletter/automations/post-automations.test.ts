// The on_publish and digest automations over data_dir files, on fake time (docs/newsletter.md "Automations"): a
// scheduled post mailed once to its list when its time comes, an edit mailing nobody, `newsletter = false` skipped,
// posts visible before the automation never mailed, a restart catching up, digests empty or naming their posts,
// and a pause holding until resumed.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createAutomationFiles } from '../../../src/adapters/files/automation-files.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import type { PostAutomation } from '../../../src/config/config.js';
import { createJsonlFiles } from '../../../src/kit/files/jsonl.js';
import { createFakeTimer, type FakeTimer } from '../../support/fake-timers.js';
import { createTempDir } from '../../support/temp-dir.js';
import { createHarness, subscribersOf, type Replica } from './automation-harness.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const ON_PUBLISH: PostAutomation = { id: 'posts', type: 'on_publish', list: 'newsletter', subject: 'New: {{title}}' };
const READERS = subscribersOf(25);

describe('on_publish and digest automations in data_dir', () => {
  let dir: { dir: string; remove: () => Promise<void> };
  let timers: FakeTimer;
  let harness: ReturnType<typeof createHarness>;
  beforeEach(async () => {
    dir = await createTempDir('automations');
    // Thursday 1 January 2026, midnight UTC.
    timers = createFakeTimer(Date.UTC(2026, 0, 1));
  });
  afterEach(async () => {
    await harness.close();
    await dir.remove();
  });

  const start = (automations: PostAutomation[], sendPerMinute?: number) => {
    const jsonl = createJsonlFiles();
    // One process serves a data_dir: every "replica" here is that process again, on the same files.
    const store = createAutomationFiles(dir.dir, jsonl.append);
    const campaigns = createCampaignFiles(campaignsDirOf(dir.dir));
    harness = createHarness({ timers, automations, subscribers: READERS, stores: () => ({ store, campaigns }), sendPerMinute });
    return harness;
  };
  /** Runs the automations, then lets the feeder send what they planned. */
  const runAndSend = async (replica: Replica) => {
    await replica.automations.runOnce();
    for (let step = 0; step < 20; step += 1) await timers.advance(1_000);
  };

  it('mails a scheduled post once to its list when its time comes, and an edit of it to nobody', async () => {
    const { posts, inbox, replica, mailsPerAddress } = start([ON_PUBLISH]);
    posts.push({ slug: 'old', lang: 'en', title: 'Old news', date: timers.now() - DAY, newsletter: true });
    const one = replica('one');
    await runAndSend(one);
    assert.equal(inbox.length, 0, 'a post visible before the automation was added is not mailed');

    posts.push({ slug: 'launch', lang: 'en', title: 'Launch day', date: timers.now() + 2 * 3_600_000, newsletter: true });
    await runAndSend(one);
    assert.equal(inbox.length, 0, 'not before its time');

    await timers.advance(2 * 3_600_000);
    await runAndSend(one);
    assert.equal(inbox.length, READERS.length);
    for (const reader of READERS) assert.equal(mailsPerAddress().get(reader.email), 1, reader.email);
    assert.ok(inbox.every((mail) => mail.subject === 'New: Launch day'));

    posts[1]!.title = 'Launch day (updated)';
    await timers.advance(MINUTE);
    await runAndSend(one);
    // A restart: another process over the same files.
    await runAndSend(replica('after-restart'));
    assert.equal(inbox.length, READERS.length, 'an edit, and a restart, mail nobody');
  });

  it('skips a post with newsletter = false, for good', async () => {
    const { posts, inbox, replica } = start([ON_PUBLISH]);
    const one = replica('one');
    await one.automations.runOnce();
    posts.push({ slug: 'quiet', lang: 'en', title: 'A quiet post', date: timers.now() + MINUTE, newsletter: false });
    await timers.advance(MINUTE);
    await runAndSend(one);
    posts[0]!.newsletter = true;
    await timers.advance(MINUTE);
    await runAndSend(one);
    assert.equal(inbox.length, 0);
  });

  it('catches up at start on a post that came due while no process ran', async () => {
    const { posts, inbox, replica } = start([ON_PUBLISH]);
    const first = replica('first');
    await first.automations.runOnce();
    await first.kill();
    posts.push({ slug: 'weekend', lang: 'en', title: 'Written on Saturday', date: timers.now() + DAY, newsletter: true });
    await timers.advance(2 * DAY);
    await runAndSend(replica('second'));
    assert.equal(inbox.length, READERS.length);
  });

  it('sends no digest for a week without posts, and one naming both posts of a week with two', async () => {
    const digest: PostAutomation = { id: 'weekly', type: 'digest', list: 'newsletter', subject: '{{count}} new posts', body: 'This week on {{site}}:', every: 'week', day: 1, time: '09:00' };
    const { posts, inbox, replica } = start([digest]);
    const one = replica('one');
    await one.automations.runOnce();
    // Monday 5 January, 09:00: the first week had no posts.
    await timers.advance(4 * DAY + 9 * 3_600_000);
    await runAndSend(one);
    assert.equal(inbox.length, 0, 'an empty digest sends nothing');

    posts.push({ slug: 'first', lang: 'en', title: 'First of the week', date: timers.now() + DAY, newsletter: true });
    posts.push({ slug: 'second', lang: 'en', title: 'Second of the week', date: timers.now() + 3 * DAY, newsletter: true });
    posts.push({ slug: 'next-week', lang: 'en', title: 'Scheduled for later', date: timers.now() + 10 * DAY, newsletter: true });
    await timers.advance(7 * DAY);
    await runAndSend(one);
    assert.equal(inbox.length, READERS.length, 'one digest to each reader');
    assert.ok(inbox.every((mail) => mail.subject === '2 new posts'));
    assert.ok(inbox.every((mail) => mail.html.includes('First of the week') && mail.html.includes('Second of the week') && !mail.html.includes('Scheduled for later')));

    await timers.advance(MINUTE);
    await runAndSend(replica('two'));
    assert.equal(inbox.length, READERS.length, 'once per period');
  });

  it('holds a paused automation until it is resumed, then mails what came meanwhile', async () => {
    const { posts, inbox, replica } = start([ON_PUBLISH]);
    const one = replica('one');
    await one.automations.runOnce();
    assert.equal(await one.automations.setPaused('posts', true, 'alice'), 'done');
    posts.push({ slug: 'held', lang: 'en', title: 'Held back', date: timers.now() + MINUTE, newsletter: true });
    await timers.advance(2 * MINUTE);
    await runAndSend(replica('two'));
    assert.equal(inbox.length, 0, 'paused');
    const [overview] = await one.automations.overview(async () => ({ sent: 0, failed: 0, skipped: 0 }));
    assert.equal(overview?.state?.paused?.by, 'alice');

    await one.automations.setPaused('posts', false, 'alice');
    await runAndSend(one);
    assert.equal(inbox.length, READERS.length);
  });

  it('stops a campaign of a paused automation before its next mail, and lets it go on once resumed', async () => {
    const { posts, inbox, replica, mailsPerAddress } = start([ON_PUBLISH], 60);
    const one = replica('one');
    await one.automations.runOnce();
    posts.push({ slug: 'paced', lang: 'en', title: 'One a second', date: timers.now() + MINUTE, newsletter: true });
    await timers.advance(MINUTE);
    await one.automations.runOnce();
    for (let step = 0; step < 5; step += 1) await timers.advance(1_000);
    assert.ok(inbox.length > 0 && inbox.length < READERS.length, `sending: ${inbox.length}`);
    await one.automations.setPaused('posts', true, 'alice');
    await timers.advance(2_000);
    const atPause = inbox.length;
    for (let step = 0; step < 60; step += 1) await timers.advance(1_000);
    assert.equal(inbox.length, atPause, 'nothing more while paused');

    await one.automations.setPaused('posts', false, 'alice');
    for (let step = 0; step < 60; step += 1) await timers.advance(1_000);
    assert.equal(inbox.length, READERS.length);
    for (const reader of READERS) assert.equal(mailsPerAddress().get(reader.email), 1, reader.email);
  });
});
