// A campaign to a list of [[newsletter.lists]] that has no form of its own (docs/newsletter.md "Sending a post"):
// planned by the list's id, sent through the queue to that list's subscribers only, each mail unsubscribing on the
// preference page with the list named, whose one-click POST leaves that list and no other.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { campaignsDirOf, createCampaignFiles } from '../../../src/adapters/files/campaign-files.js';
import { readJsonLines } from '../../../src/kit/files/jsonl.js';
import { planCampaign, startCampaign, type CampaignPlan } from '../../../src/newsletter/campaigns/campaign-plan.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { tokenOf } from '../../support/newsletter.js';
import { waitFor } from '../../support/wait.js';

const startService = useTestFormsService();
const URLENCODED = 'application/x-www-form-urlencoded';
const POST = { slug: 'spring', lang: 'en', title: 'Spring', url: 'https://blog.example.com/blog/spring', html: '<p>Blossoms.</p>', date: '2026-03-01T00:00:00Z' };

function start(): Promise<TestFormsService> {
  return startService({
    forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0, lists: ['newsletter', 'weekly'] }],
    extra: {
      server: { public_url: 'https://forms.example.com' },
      mail: { queue: true, send_per_minute: 0 },
      newsletter: { lists: [{ id: 'weekly', name: 'The weekly' }] },
    },
  });
}

async function subscribe(forms: TestFormsService, email: string, lists: string): Promise<void> {
  const signup = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': URLENCODED }, payload: `email=${encodeURIComponent(email)}&${lists}` });
  assert.equal(signup.statusCode, 200);
  const mail = await waitFor('the confirmation mail', async () => forms.mailer.sent.find((sent) => sent.to === email && sent.text.includes('/confirm?token=')));
  const confirm = await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${tokenOf(mail)}` });
  assert.equal(confirm.statusCode, 200);
}

describe('a campaign to a list without a form', () => {
  it('goes to that list alone, and its one-click unsubscribe leaves that list and no other', async () => {
    const forms = await start();
    await subscribe(forms, 'both@example.org', 'lists=newsletter&lists=weekly');
    await subscribe(forms, 'weekly@example.org', 'lists=weekly');
    await subscribe(forms, 'own@example.org', 'lists=newsletter');
    const store = createCampaignFiles(campaignsDirOf(forms.dataDir));
    const sources = {
      lists: forms.config.newsletter.lists,
      findPost: (slug: string) => (slug === POST.slug ? POST : undefined),
      readSubscribers: (log: { path: string; subscribers: string }) => forms.core.newsletter.listSubscribers(log),
      store,
      site: { title: 'Example', baseUrl: 'https://blog.example.com' },
    };
    const plan = (await planCampaign(sources, { list: 'weekly', slug: 'spring' })) as CampaignPlan;
    assert.equal(plan.list.id, 'weekly');
    assert.deepEqual([...plan.recipients].sort(), ['both@example.org', 'weekly@example.org']);
    const outcome = await startCampaign(store, plan, { resend: false, now: Date.parse('2026-11-23T12:00:00Z'), randomHex: 'abcd' });
    assert.ok('started' in outcome);
    assert.equal(outcome.started.form, 'weekly');
    forms.core.campaigns!.wake();
    await waitFor('the campaign to finish', async () => ((await store.readJournal(outcome.started.id)).some((line) => 'finished_at' in line) ? true : undefined));

    const campaignMails = forms.mailer.sent.filter((mail) => mail.subject === 'Spring');
    assert.deepEqual(campaignMails.map((mail) => mail.to).sort(), ['both@example.org', 'weekly@example.org']);
    for (const mail of campaignMails) {
      assert.match(mail.list!.unsubscribeUrl, /^https:\/\/forms\.example\.com\/newsletter\/preferences\?token=[^&]+&list=weekly$/);
      assert.equal(mail.list!.id, 'weekly.forms.example.com');
      assert.ok(mail.text.includes(mail.list!.unsubscribeUrl), 'the link is in the text');
    }

    const both = campaignMails.find((mail) => mail.to === 'both@example.org')!;
    const scanned = await forms.app.inject({ method: 'GET', url: both.list!.unsubscribeUrl.slice('https://forms.example.com'.length) });
    assert.equal(scanned.statusCode, 200);
    assert.equal(await forms.core.newsletter.isSubscribed(plan.list.log, 'both@example.org'), true, 'a GET changes nothing');
    const oneClick = await forms.app.inject({ method: 'POST', url: both.list!.unsubscribeUrl.slice('https://forms.example.com'.length), headers: { 'content-type': URLENCODED }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.statusCode, 200);
    const own = forms.config.newsletter.lists.find((list) => list.id === 'newsletter')!;
    assert.equal(await forms.core.newsletter.isSubscribed(plan.list.log, 'both@example.org'), false, 'left the weekly');
    assert.equal(await forms.core.newsletter.isSubscribed(own.log, 'both@example.org'), true, 'still on the form’s own list');
    const weeklyLog = (await readJsonLines<Record<string, unknown>>(path.join(forms.dataDir, plan.list.log.subscribers))).records;
    assert.equal(weeklyLog.at(-1)?.event, 'unsubscribed');
  });
});
