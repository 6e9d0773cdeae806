// A refusal at send time (src/bounces/smtp-refusal.ts, docs/bounces.md "Suppression"): a 5xx to RCPT TO is a report,
// hard when the reply says the mailbox or domain does not exist (by the bounce rules), soft otherwise; anything else (a 4xx, a refused
// message or sender, a network error) is no report at all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smtpRefusalOf } from '../../src/bounces/smtp-refusal.js';

/** The error nodemailer rejects with when the server refused the only recipient. */
function rcptRefusal(response: string): Error {
  const code = Number(response.slice(0, 3));
  return Object.assign(new Error(`Can't send mail - all recipients were rejected: ${response}`), {
    code: 'EENVELOPE',
    command: 'RCPT TO',
    response,
    responseCode: code,
    rejected: ['gone@example.org'],
  });
}

describe('a refusal at RCPT TO', () => {
  const table: Array<[string, 'hard' | 'soft', string | undefined]> = [
    ['550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown in local recipient table', 'hard', '5.1.1'],
    ['550 5.1.2 Host unknown', 'hard', '5.1.2'],
    ['556 5.1.10 Recipient address has null MX', 'hard', '5.1.10'],
    ['550 No such user here', 'hard', undefined],
    ["550 5.0.0 User 'gone' does not exist", 'hard', '5.0.0'],
    ['550 5.7.1 <gone@example.org>: Recipient address rejected: User unknown', 'hard', '5.7.1'],
    ['550 5.7.1 <gone@example.org>: Recipient address rejected: Access denied', 'soft', '5.7.1'],
    ['550 5.2.2 <gone@example.org>: user over quota', 'soft', '5.2.2'],
    ['550 Requested action not taken: mailbox unavailable', 'soft', undefined],
    ['552 5.2.2 Mailbox full', 'soft', '5.2.2'],
    ['554 5.7.1 Message refused by policy', 'soft', '5.7.1'],
    ['550 5.1.8 Bad sender address', 'soft', '5.1.8'],
  ];
  for (const [reply, kind, status] of table) {
    it(`"${reply}" is ${kind}`, () => {
      const refusal = smtpRefusalOf(rcptRefusal(reply));
      assert.equal(refusal?.kind, kind);
      assert.equal(refusal?.status, status);
      assert.doesNotMatch(refusal!.reason, /gone@example\.org/, 'the address is replaced in the reason');
    });
  }

  it('is no report for a temporary refusal, a refused message or sender, or a network error', () => {
    assert.equal(smtpRefusalOf(rcptRefusal('450 4.2.0 Greylisted, try again')), undefined);
    assert.equal(smtpRefusalOf(Object.assign(new Error('Message failed'), { code: 'EMESSAGE', command: 'DATA', response: '554 5.7.1 spam', responseCode: 554 })), undefined);
    assert.equal(smtpRefusalOf(Object.assign(new Error('Mail command failed'), { code: 'EENVELOPE', command: 'MAIL FROM', response: '550 5.1.8 no', responseCode: 550 })), undefined);
    assert.equal(smtpRefusalOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET' })), undefined);
    assert.equal(smtpRefusalOf(undefined), undefined);
  });
});
