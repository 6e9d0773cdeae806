// Mailgun's webhooks (src/bounces/webhooks/mailgun.ts): the HMAC of timestamp + token, the freshness window, and
// `failed` / `complained` events turned into reports.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMailgunFresh, isMailgunSigned, MAILGUN_WINDOW_MS, parseMailgun } from '../../../src/bounces/webhooks/mailgun.js';
import { MAILGUN_SIGNING_KEY, mailgunFailure, mailgunRequest } from '../../support/bounce-webhooks.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const SECONDS = NOW / 1000;

function parsed(eventData: object, options: { timestampSeconds?: number; signingKey?: string } = {}) {
  const result = parseMailgun(mailgunRequest(eventData, { timestampSeconds: options.timestampSeconds ?? SECONDS, signingKey: options.signingKey }).body, NOW);
  assert.ok(result.ok);
  return result;
}

describe('the Mailgun signature', () => {
  it('verifies with the signing key, and not with another', () => {
    const { signature } = parsed(mailgunFailure('a@example.org'));
    assert.equal(isMailgunSigned(MAILGUN_SIGNING_KEY, signature), true);
    assert.equal(isMailgunSigned(`${MAILGUN_SIGNING_KEY}x`, signature), false);
    assert.equal(isMailgunSigned(MAILGUN_SIGNING_KEY, { ...signature, token: `${signature.token}x` }), false);
    assert.equal(isMailgunSigned(MAILGUN_SIGNING_KEY, { ...signature, timestamp: String(Number(signature.timestamp) + 1) }), false);
  });

  it('is fresh within the window either way, and stale beyond it', () => {
    const at = (offsetMs: number) => ({ timestamp: String((NOW + offsetMs) / 1000), token: 't', signature: 's' });
    assert.equal(isMailgunFresh(at(0), NOW), true);
    assert.equal(isMailgunFresh(at(-MAILGUN_WINDOW_MS), NOW), true);
    assert.equal(isMailgunFresh(at(MAILGUN_WINDOW_MS), NOW), true);
    assert.equal(isMailgunFresh(at(-MAILGUN_WINDOW_MS - 1000), NOW), false);
    assert.equal(isMailgunFresh(at(MAILGUN_WINDOW_MS + 1000), NOW), false);
    assert.equal(isMailgunFresh({ timestamp: 'soon', token: 't', signature: 's' }, NOW), false);
  });
});

describe('parseMailgun', () => {
  it('reads a permanent failure: the recipient, the status in the reply, the envelope sender and From', () => {
    assert.deepEqual(parsed(mailgunFailure('Gone@Example.org')).reports, [
      {
        source: 'mailgun',
        kind: 'hard',
        recipient: 'gone@example.org',
        status: '5.1.1',
        reason: 'permanent/bounce: 5.1.1 The email account that you tried to reach does not exist',
        sentTo: ['bounces+tag@example.com', 'forms@example.com'],
        at: 1714564790500,
      },
    ]);
  });

  const kinds: Array<[Parameters<typeof mailgunFailure>[1], string]> = [
    [{ code: 550, message: '5.7.1 Message rejected as spam' }, 'soft'],
    [{ code: 550, message: 'Requested action not taken: mailbox unavailable' }, 'soft'],
    [{ code: 421, message: 'Service not available' }, 'soft'],
    [{ severity: 'temporary', code: 550, message: '5.1.1 no such user' }, 'soft'],
    [{ reason: 'suppress-bounce', code: 605, message: 'Not delivering to previously bounced address' }, 'hard'],
    [{ reason: 'suppress-complaint', code: 607, message: 'Not delivering to a user who marked your messages as spam' }, 'complaint'],
    [{ reason: 'suppress-unsubscribe', code: 606, message: 'Not delivering to unsubscribed address' }, 'none'],
    [{ reason: 'old', code: 0, message: 'Too old' }, 'soft'],
  ];
  for (const [options, kind] of kinds) {
    it(`${JSON.stringify(options)} is ${kind}`, () => assert.equal(parsed(mailgunFailure('a@example.org', options)).reports[0]?.kind, kind));
  }

  it('reads a complaint, and skips other events', () => {
    const complaint = parsed({ event: 'complained', recipient: 'angry@example.org', timestamp: 1714564000, envelope: { sender: 'bounces+t@example.com' } }).reports;
    assert.deepEqual(complaint, [{ source: 'mailgun', kind: 'complaint', recipient: 'angry@example.org', reason: 'complained', sentTo: ['bounces+t@example.com'], at: 1714564000000 }]);
    assert.deepEqual(parsed({ event: 'delivered', recipient: 'a@example.org' }).reports, []);
  });

  it('refuses a body without a signature or event-data', () => {
    for (const body of ['x', '{}', JSON.stringify({ signature: { timestamp: '1', token: 't' }, 'event-data': {} }), JSON.stringify({ signature: { timestamp: '1', token: 't', signature: 's' } })]) {
      assert.equal(parseMailgun(body, NOW).ok, false, body);
    }
  });
});
