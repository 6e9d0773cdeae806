// Creating a campaign: two sends of the same post started at the same moment (a double click, the CLI and /admin)
// make one campaign, sending again after it is refused unless asked for, and a segment's campaign has its members.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { PublishedPost } from '../../../src/blog/published-post.js';
import { planCampaign, startCampaign, type CampaignPlan, type CampaignSources } from '../../../src/newsletter/campaigns/campaign-plan.js';
import { loadTestConfig } from '../../support/config.js';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { createTempDir } from '../../support/temp-dir.js';

const POST: PublishedPost = { slug: 'spring', lang: 'en', title: 'Spring', url: 'https://example.com/blog/spring', html: '<p>Hello</p>', date: '2026-03-01T00:00:00Z' };

describe('starting a campaign', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function sources(): Promise<CampaignSources> {
    const temp = await createTempDir('plan');
    cleanups.push(temp.remove);
    const config = loadTestConfig(
      {
        data_dir: temp.dir,
        server: { public_url: 'https://forms.example.com' },
        mail: { from: 'news@example.com', to: 'owner@example.com' },
        forms: [{ path: '/newsletter', type: 'newsletter' }],
      },
      temp.dir,
    );
    return {
      lists: config.newsletter.lists,
      findPost: (slug) => (slug === POST.slug ? POST : undefined),
      readSubscribers: async () => [
        { email: 'a@example.org', subscribed_at: '2026-01-01T00:00:00.000Z' },
        { email: 'b@example.org', subscribed_at: '2026-01-01T00:00:00.000Z', tags: ['beta'] },
      ],
      store: createCampaignFiles(campaignsDirOf(temp.dir)),
      site: { title: 'Example', baseUrl: 'https://example.com' },
    };
  }

  const plan = async (from: CampaignSources) => (await planCampaign(from, { list: '/newsletter', slug: 'spring' })) as CampaignPlan;

  it('makes one campaign of two sends started at the same moment', async () => {
    const from = await sources();
    const [first, second] = await Promise.all([plan(from), plan(from)]);
    const outcomes = await Promise.all([
      startCampaign(from.store, first, { resend: false, now: Date.parse('2026-11-23T12:00:00Z'), randomHex: 'aaaa' }),
      startCampaign(from.store, second, { resend: false, now: Date.parse('2026-11-23T12:00:00Z'), randomHex: 'bbbb' }),
    ]);
    assert.equal(outcomes.filter((outcome) => 'started' in outcome).length, 1);
    assert.deepEqual(outcomes.find((outcome) => 'refused' in outcome), { refused: 'taken' });
    assert.equal((await from.store.list()).length, 1);
  });

  it('refuses the same post again unless resent, and a resend is one campaign more', async () => {
    const from = await sources();
    const first = await startCampaign(from.store, await plan(from), { resend: false, now: Date.parse('2026-11-23T12:00:00Z'), randomHex: 'aaaa' });
    assert.ok('started' in first);
    await from.store.append(first.started.id, { finished_at: '2026-11-23T12:01:00Z' });
    const again = await startCampaign(from.store, await plan(from), { resend: false, now: Date.parse('2026-11-23T12:05:00Z'), randomHex: 'bbbb' });
    assert.deepEqual(again, { refused: 'already_sent', earlier: first.started });
    const resent = await startCampaign(from.store, await plan(from), { resend: true, now: Date.parse('2026-11-23T12:05:00Z'), randomHex: 'cccc' });
    assert.ok('started' in resent && resent.started.resend);
    assert.equal((await from.store.list()).length, 2);
  });

  it('creates a campaign to a segment with exactly the subscribers it takes', async () => {
    const from = await sources();
    const segment = { id: 'beta', list: 'newsletter', tags_include: ['beta'], tags_exclude: [] };
    const planned = (await planCampaign(from, { list: '/newsletter', slug: 'spring', segment })) as CampaignPlan;
    assert.deepEqual([planned.recipients, planned.listCount], [['b@example.org'], 2]);
    const started = await startCampaign(from.store, planned, { resend: false, now: Date.parse('2026-11-23T12:00:00Z'), randomHex: 'aaaa' });
    assert.ok('started' in started);
    assert.equal(started.started.recipients, 1);
    assert.deepEqual(await from.store.readRecipients(started.started.id), ['b@example.org']);
  });
});
