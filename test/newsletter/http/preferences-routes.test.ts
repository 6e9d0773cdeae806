// The preference page through the service's front door, with the real newsletter over a temp data_dir
// (docs/newsletter.md "Preferences"): GET shows the public lists and those the address is on and changes nothing;
// POST with the token joins and leaves (no confirmation mail), each change an event of that list's log; "leave all"
// leaves every list; a bad token is 400; campaign mails link the page.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readJsonLines } from '../../../src/kit/files/jsonl.js';
import { composeCampaignMail } from '../../../src/newsletter/campaigns/campaign-mail.js';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { tokenOf } from '../../support/newsletter.js';

const startService = useTestFormsService();
const EMAIL = 'Ada@Example.org';
const FORM = 'application/x-www-form-urlencoded';

function start(): Promise<TestFormsService> {
  return startService({
    forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0, lists: ['newsletter', 'weekly', 'staff'] }],
    extra: {
      server: { public_url: 'https://forms.example.com' },
      site: { title: 'Ada & Co', base_url: 'https://blog.example.com' },
      newsletter: {
        lists: [
          { id: 'weekly', name: 'The weekly', description: 'Every Monday' },
          { id: 'staff', name: 'Staff notes', public: false },
          { id: 'hidden', name: 'Hidden', public: false },
        ],
      },
    },
  });
}

/** Subscribes EMAIL to `lists` through the form, and returns the path of its preference page. */
async function subscribe(forms: TestFormsService, lists: string): Promise<string> {
  const signup = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': FORM }, payload: `email=${encodeURIComponent(EMAIL)}&${lists}` });
  assert.equal(signup.statusCode, 200);
  const confirm = await forms.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${tokenOf(forms.mailer.sent.at(-1))}` });
  assert.equal(confirm.statusCode, 200);
  const link = await forms.core.newsletter.preferences.linkFor(EMAIL);
  assert.ok(link.startsWith('https://forms.example.com/newsletter/preferences?token='), link);
  return link.slice('https://forms.example.com'.length);
}

const logOf = async (forms: TestFormsService, file: string) => (await readJsonLines<Record<string, unknown>>(path.join(forms.dataDir, file))).records;
/** The checkboxes of a page, by list id, "+" for a ticked one. */
const checked = (body: string) => [...body.matchAll(/<input type="checkbox"[^>]*>/g)].map(([tag]) => `${/id="list-([^"]+)"/.exec(tag)?.[1]}${/ checked/.test(tag) ? '+' : ''}`);

describe('the preference page', () => {
  it('shows the lists on GET, saves joins and leaves on POST without a confirmation, and leaves all', async () => {
    const forms = await start();
    const url = await subscribe(forms, 'lists=weekly&lists=staff');
    const mailsBefore = forms.mailer.sent.length;

    const page = await forms.app.inject({ method: 'GET', url });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['content-security-policy']), /form-action 'self'/);
    assert.deepEqual(checked(page.body), ['newsletter', 'weekly+', 'staff+'], 'public lists, and the private one it is on; never "hidden"');
    assert.match(page.body, /Every Monday/);
    assert.equal((await logOf(forms, 'newsletter-list-weekly-subscribers.jsonl')).length, 1, 'a GET changes nothing');

    const saved = await forms.app.inject({ method: 'POST', url, headers: { 'content-type': FORM }, payload: 'action=save&lists=newsletter&lists=weekly' });
    assert.equal(saved.statusCode, 200);
    assert.match(saved.body, /Your choices are saved/);
    assert.deepEqual(checked(saved.body), ['newsletter+', 'weekly+'], 'left staff, which it cannot join again');
    assert.equal(forms.mailer.sent.length, mailsBefore, 'no confirmation for an address that reads its mail');
    const joined = await logOf(forms, 'newsletter-subscribers.jsonl');
    assert.deepEqual(joined.map((line) => [line.event, line.email, line.form]), [['subscribed', EMAIL, '/newsletter']]);
    const staff = await logOf(forms, 'newsletter-list-staff-subscribers.jsonl');
    assert.deepEqual(staff.map((line) => [line.event, line.form]), [['subscribed', 'staff'], ['unsubscribed', 'staff']]);

    const left = await forms.app.inject({ method: 'POST', url, headers: { 'content-type': FORM }, payload: 'action=leave_all' });
    assert.equal(left.statusCode, 200);
    assert.match(left.body, /You left every list/);
    assert.deepEqual(checked(left.body), ['newsletter', 'weekly']);
    assert.equal((await logOf(forms, 'newsletter-subscribers.jsonl')).at(-1)?.event, 'unsubscribed');
    assert.equal((await logOf(forms, 'newsletter-list-weekly-subscribers.jsonl')).at(-1)?.event, 'unsubscribed');
    assert.equal(await forms.core.newsletter.isSubscribed(forms.config.forms[0] as never, EMAIL), false);

    for (const bad of ['/newsletter/preferences', '/newsletter/preferences?token=x.y', `${url.slice(0, -2)}AA`]) {
      assert.equal((await forms.app.inject({ method: 'GET', url: bad })).statusCode, 400, bad);
      assert.equal((await forms.app.inject({ method: 'POST', url: bad, headers: { 'content-type': FORM }, payload: 'action=leave_all' })).statusCode, 400, bad);
    }
    // The one-click unsubscribe of a mail still leaves only the list it came from.
    await forms.app.inject({ method: 'POST', url, headers: { 'content-type': FORM }, payload: 'lists=newsletter,weekly' });
    const unsubscribeLink = await forms.core.newsletter.unsubscribeLinkFor(forms.config.forms[0] as never, EMAIL);
    const oneClick = await forms.app.inject({ method: 'POST', url: unsubscribeLink.slice('https://forms.example.com'.length), headers: { 'content-type': FORM }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.statusCode, 200);
    assert.deepEqual(checked((await forms.app.inject({ method: 'GET', url })).body), ['newsletter', 'weekly+']);
  });

  it('is linked from every campaign mail, in the text and the HTML', () => {
    const mail = composeCampaignMail(
      { subject: 'Hello', lang: 'en', html: '<p>Hi</p>', text: 'Hello\n\nHi' },
      { unsubscribeUrl: 'https://forms.example.com/newsletter/unsubscribe?token=a', preferencesUrl: 'https://forms.example.com/newsletter/preferences?token=b&c', siteTitle: 'Ada', postUrl: 'https://blog.example.com/p' },
    );
    assert.match(mail.text, /Choose your lists: https:\/\/forms\.example\.com\/newsletter\/preferences\?token=b&c\n/);
    assert.match(mail.html, /href="https:\/\/forms\.example\.com\/newsletter\/preferences\?token=b&amp;c"/);
  });
});
