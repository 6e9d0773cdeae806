// SendGrid's signed Event Webhook (src/bounces/webhooks/sendgrid.ts): ECDSA over timestamp + raw body with the
// configured key (base64 DER or PEM), a signed timestamp within the window of now, and the events that say something
// about an address.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BounceReport } from '../../../src/bounces/bounce-report.js';
import { createBounceWebhooks } from '../../../src/bounces/intake/webhook-intake.js';
import { isSendgridFresh, isSendgridSigned, kindOfSendgridEvent, parseSendgrid, SENDGRID_WINDOW_MS, sendgridPublicKey } from '../../../src/bounces/webhooks/sendgrid.js';
import { createTestClock } from '../../support/clock.js';
import { captureLogs } from '../../support/log-capture.js';
import { sendgridKeys, sendgridRequest, snsCertificate } from '../../support/bounce-webhooks.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const keys = sendgridKeys();

describe('isSendgridFresh', () => {
  it('takes a timestamp within the window either side of now, and refuses an older, a later or a malformed one', () => {
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    assert.equal(isSendgridFresh(seconds(NOW), NOW), true);
    assert.equal(isSendgridFresh(seconds(NOW - SENDGRID_WINDOW_MS), NOW), true);
    assert.equal(isSendgridFresh(seconds(NOW + SENDGRID_WINDOW_MS), NOW), true);
    assert.equal(isSendgridFresh(seconds(NOW - SENDGRID_WINDOW_MS - 1000), NOW), false);
    assert.equal(isSendgridFresh(seconds(NOW + SENDGRID_WINDOW_MS + 1000), NOW), false);
    for (const odd of [undefined, '', '1e9', '+1714564800', '1714564800.5', ' 1714564800', 'x']) assert.equal(isSendgridFresh(odd, NOW), false, String(odd));
  });

  it('makes the intake refuse a genuine signed batch replayed after the window', async () => {
    const reports: BounceReport[] = [];
    const clock = createTestClock(NOW);
    const webhooks = createBounceWebhooks(
      { sendgrid: { publicKey: keys.publicKeyBase64 } },
      { sink: { record: async (report) => (reports.push(report), 'counted') }, clock, logger: captureLogs().logger, fetchText: () => Promise.reject(new Error('offline')) },
    );
    const { headers, body } = sendgridRequest([{ email: 'gone@example.org', event: 'bounce', status: '5.1.1', reason: '550 5.1.1 unknown' }], keys.privateKey, String(NOW / 1000));
    const delivery = { headers, body: Buffer.from(body) };
    assert.equal((await webhooks.receive('sendgrid', delivery)).kind, 'accepted');
    clock.advance(SENDGRID_WINDOW_MS + 1000);
    assert.deepEqual(await webhooks.receive('sendgrid', delivery), { kind: 'unauthorized', why: 'timestamp outside the window' });
    assert.equal(reports.length, 1);
  });
});

describe('isSendgridSigned', () => {
  const { headers, body } = sendgridRequest([{ email: 'a@example.org', event: 'bounce' }], keys.privateKey);
  const signature = headers['x-twilio-email-event-webhook-signature'];
  const timestamp = headers['x-twilio-email-event-webhook-timestamp'];

  it('verifies with the key as SendGrid shows it (base64 DER) and as PEM', () => {
    assert.equal(isSendgridSigned(sendgridPublicKey(keys.publicKeyBase64), signature, timestamp, Buffer.from(body)), true);
    assert.equal(isSendgridSigned(sendgridPublicKey(keys.publicKeyPem), signature, timestamp, Buffer.from(body)), true);
  });

  it('refuses another body, another timestamp, another key, or a missing signature', () => {
    const key = sendgridPublicKey(keys.publicKeyBase64);
    assert.equal(isSendgridSigned(key, signature, timestamp, Buffer.from(`${body} `)), false);
    assert.equal(isSendgridSigned(key, signature, `${timestamp}1`, Buffer.from(body)), false);
    assert.equal(isSendgridSigned(sendgridPublicKey(sendgridKeys().publicKeyBase64), signature, timestamp, Buffer.from(body)), false);
    assert.equal(isSendgridSigned(key, undefined, timestamp, Buffer.from(body)), false);
    assert.equal(isSendgridSigned(key, 'bm90IGEgc2lnbmF0dXJl', timestamp, Buffer.from(body)), false);
  });

  it('refuses a configured key that is not an EC public key', () => {
    assert.throws(() => sendgridPublicKey('bm90IGEga2V5'));
    assert.throws(() => sendgridPublicKey(snsCertificate().pem));
  });
});

describe('kindOfSendgridEvent', () => {
  const cases: Array<[object, string | undefined]> = [
    [{ event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 unknown' }, 'hard'],
    [{ event: 'bounce', type: 'bounce', status: '5.1.10', reason: '550 5.1.10 RecipientNotFound' }, 'hard'],
    [{ event: 'bounce', type: 'bounce', status: '5.0.0', reason: '550 User unknown' }, 'hard'],
    [{ event: 'bounce', type: 'bounce', status: '5.7.1', reason: '550 5.7.1 rejected by policy' }, 'soft'],
    [{ event: 'bounce', type: 'bounce', status: '5.0.0', reason: 'rejected' }, 'soft'],
    [{ event: 'bounce', type: 'blocked', status: '5.1.1', reason: 'blocked' }, 'soft'],
    [{ event: 'dropped', reason: 'Bounced Address' }, 'hard'],
    [{ event: 'dropped', reason: 'Invalid' }, 'hard'],
    [{ event: 'dropped', reason: 'Spam Reporting Address' }, 'complaint'],
    [{ event: 'dropped', reason: 'Unsubscribed Address' }, 'none'],
    [{ event: 'spamreport' }, 'complaint'],
    [{ event: 'deferred', reason: '421 try later' }, undefined],
    [{ event: 'delivered' }, undefined],
  ];
  for (const [event, kind] of cases) it(`${JSON.stringify(event)} is ${kind}`, () => assert.equal(kindOfSendgridEvent(event as Record<string, unknown>), kind));
});

describe('parseSendgrid', () => {
  it('gives a report for each bounce, drop and spam report of the batch, skipping the other events', () => {
    const body = JSON.stringify([
      { email: 'Gone@Example.org', timestamp: 1714564700, event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 unknown user', return_path: 'bounces+tag@example.com' },
      { email: 'seen@example.org', timestamp: 1714564701, event: 'delivered' },
      { email: 'angry@example.org', timestamp: 1714564702, event: 'spamreport' },
    ]);
    assert.deepEqual(parseSendgrid(body, NOW), {
      ok: true,
      reports: [
        { source: 'sendgrid', kind: 'hard', recipient: 'gone@example.org', status: '5.1.1', reason: 'bounce: 550 5.1.1 unknown user', sentTo: ['bounces+tag@example.com'], at: 1714564700000 },
        { source: 'sendgrid', kind: 'complaint', recipient: 'angry@example.org', reason: 'spamreport', sentTo: [], at: 1714564702000 },
      ],
    });
  });

  it('refuses what is not a JSON array of events', () => {
    for (const body of ['{}', 'x', '[1]', '{"event":"bounce"}']) assert.equal(parseSendgrid(body, NOW).ok, false, body);
  });
});
