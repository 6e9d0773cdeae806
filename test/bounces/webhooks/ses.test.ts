// SES notifications (src/bounces/webhooks/ses.ts): one report per bounced or complaining recipient, the kind from
// bounceType and bounceSubType (a Permanent General bounce judged by its status), the envelope sender as sentTo.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindOfSesBounce, parseSesNotification } from '../../../src/bounces/webhooks/ses.js';
import { sesBounce } from '../../support/bounce-webhooks.js';

const NOW = Date.UTC(2024, 4, 1, 12);

describe('kindOfSesBounce', () => {
  const cases: Array<[string, string, { status?: string; diagnosticCode?: string }, string]> = [
    ['Permanent', 'General', { status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }, 'hard'],
    ['Permanent', 'General', { status: '5.7.1', diagnosticCode: 'smtp; 550 5.7.1 message rejected as spam' }, 'soft'],
    ['Permanent', 'General', {}, 'hard'],
    ['Permanent', 'NoEmail', { status: '5.7.1' }, 'hard'],
    ['Permanent', 'Suppressed', {}, 'hard'],
    ['Permanent', 'OnAccountSuppressionList', {}, 'hard'],
    ['Permanent', 'UnsupportedAttachment', {}, 'soft'],
    ['Transient', 'MailboxFull', { status: '5.2.2' }, 'soft'],
    ['Transient', 'General', { status: '5.1.1' }, 'soft'],
    ['Undetermined', 'Undetermined', {}, 'soft'],
  ];
  for (const [type, subType, recipient, kind] of cases) {
    it(`${type}/${subType} ${JSON.stringify(recipient)} is ${kind}`, () => assert.equal(kindOfSesBounce(type, subType, recipient), kind));
  }
});

describe('parseSesNotification', () => {
  it('gives one report per bounced recipient, with the envelope sender and the From as sentTo', () => {
    const notification = sesBounce([
      { emailAddress: 'Gone@Example.org', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
      { emailAddress: 'full@example.org', status: '5.2.2', diagnosticCode: 'smtp; 552 5.2.2 mailbox full' },
    ]);
    assert.deepEqual(parseSesNotification(JSON.stringify(notification), NOW), {
      ok: true,
      reports: [
        { source: 'ses', kind: 'hard', recipient: 'gone@example.org', status: '5.1.1', reason: 'Permanent/General: smtp; 550 5.1.1 user unknown', sentTo: ['bounces+tag@example.com', 'forms@example.com'], at: Date.UTC(2024, 4, 1, 11, 59) },
        { source: 'ses', kind: 'soft', recipient: 'full@example.org', status: '5.2.2', reason: 'Permanent/General: smtp; 552 5.2.2 mailbox full', sentTo: ['bounces+tag@example.com', 'forms@example.com'], at: Date.UTC(2024, 4, 1, 11, 59) },
      ],
    });
  });

  it('reads a complaint, and the Return-Path among the headers, from event publishing (eventType)', () => {
    const notification = {
      eventType: 'Complaint',
      complaint: { complainedRecipients: [{ emailAddress: 'angry@example.org' }], timestamp: '2024-05-01T11:00:00Z', complaintFeedbackType: 'abuse' },
      mail: { source: 'forms@example.com', headers: [{ name: 'Return-Path', value: '<bounces+tag2@example.com>' }] },
    };
    assert.deepEqual(parseSesNotification(JSON.stringify(notification), NOW), {
      ok: true,
      reports: [{ source: 'ses', kind: 'complaint', recipient: 'angry@example.org', reason: 'Complaint: abuse', sentTo: ['forms@example.com', 'bounces+tag2@example.com'], at: Date.UTC(2024, 4, 1, 11) }],
    });
  });

  it('gives no report for a delivery or the subscription notice', () => {
    assert.deepEqual(parseSesNotification(JSON.stringify({ notificationType: 'Delivery', mail: {} }), NOW), { ok: true, reports: [] });
    assert.deepEqual(parseSesNotification(JSON.stringify({ notificationType: 'AmazonSnsSubscriptionSucceeded', message: 'ok' }), NOW), { ok: true, reports: [] });
  });

  it('refuses what is not an SES notification', () => {
    for (const message of ['plain text', '{}', JSON.stringify({ notificationType: 'Bounce' }), JSON.stringify({ notificationType: 'Bounce', bounce: { bounceType: 'Permanent', bouncedRecipients: [] } })]) {
      assert.equal(parseSesNotification(message, NOW).ok, false, message);
    }
  });
});
