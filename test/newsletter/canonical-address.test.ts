// One mailbox, one signup (docs/newsletter.md "Duplicates"): a burst of the spellings of one address through the
// forms service stores and mails once, to the plain spelling; a quoted local part with no plain spelling is refused
// with the validation error; contact forms keep taking quoted addresses as they are.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PENDING_JOURNAL_FILE } from '../../src/newsletter/pending-store.js';
import { contactForm, useTestFormsService } from '../support/forms-app.js';
import { readJsonLines } from '../support/json-lines.js';

const start = useTestFormsService();
const NEWSLETTER = { path: '/newsletter', type: 'newsletter', rate_limit_per_hour: 0 };
const SERVER = { server: { public_url: 'https://forms.example.com' } };

/** Every spelling RFC 5322 has for the mailbox bomb@example.com (case aside), as JSON string values. */
const SPELLINGS = [
  'bomb@example.com',
  '"bomb"@example.com',
  '"b\\omb"@example.com',
  '"bo\\mb"@example.com',
  '"bom\\b"@example.com',
  '"\\b\\o\\m\\b"@example.com',
  'BOMB@example.com',
  '"Bomb"@EXAMPLE.com',
  '"\\bOMB"@Example.Com',
];

describe('newsletter addresses through the forms service', () => {
  it('a burst of the spellings of one mailbox gets one confirmation mail, to its plain spelling', async () => {
    const forms = await start({ forms: [NEWSLETTER], extra: SERVER });
    const answers = await Promise.all(
      SPELLINGS.map((email) => forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email }) })),
    );
    assert.deepEqual(answers.map((answer) => answer.statusCode), SPELLINGS.map(() => 200));
    assert.ok(answers.every((answer) => answer.body === '{"ok":true}'), 'answered alike');
    const confirmations = forms.mailer.sent.filter((mail) => mail.subject.includes('confirm'));
    assert.equal(confirmations.length, 1);
    assert.doesNotMatch(confirmations[0]!.to, /["\\]/);
    assert.equal(confirmations[0]!.to.toLowerCase(), 'bomb@example.com');
    const metrics = await forms.metrics();
    assert.equal(metrics.forms['/newsletter']?.duplicate_signup, SPELLINGS.length - 1);
    const stored = (await readJsonLines(path.join(forms.dataDir, PENDING_JOURNAL_FILE))).map((line) => line.email).filter((email) => email !== '');
    assert.equal(stored.length, 1);
    assert.doesNotMatch(String(stored[0]), /["\\]/);
  });

  it('refuses a quoted local part that has no plain spelling with the validation error, and stores nothing', async () => {
    const forms = await start({ forms: [NEWSLETTER], extra: SERVER });
    for (const email of ['"bo mb"@example.com', '"b..omb"@example.com', '""@example.com', '"a@b"@example.com', '"b\\"omb"@example.com']) {
      const answer = await forms.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email }) });
      assert.equal(answer.statusCode, 400, email);
      assert.deepEqual(answer.json(), { error: 'validation', details: [{ field: 'email', message: 'Email must be a valid email address' }] }, email);
    }
    assert.equal(forms.mailer.sent.length, 0);
  });

  it('leaves a contact form\'s quoted address as it was sent', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 0 })] });
    const answer = await forms.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Ada', email: '"ada lovelace"@example.org', message: 'Hello, a website please' }),
    });
    assert.equal(answer.statusCode, 200);
    assert.equal(forms.mailer.sent[0]?.replyTo, '"ada lovelace"@example.org');
  });
});
