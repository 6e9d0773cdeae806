// POST /bounces/<provider> (src/bounces/http/bounce-routes.ts over src/bounces/intake/webhook-intake.ts), driven
// through a front door like the forms service's: for each provider a genuine request is 200 once the sink took its
// reports, wrong credentials or a wrong signature 401, a body not in the provider's format 400; a provider not
// configured is 404, an oversized body 413. SES certificates come from an injected fetcher, never the network.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { BounceOutcome, BounceReport, BounceSink } from '../../../src/bounces/bounce-report.js';
import { createBounceWebhooks, type BounceWebhookSettings } from '../../../src/bounces/intake/webhook-intake.js';
import { MAILGUN_WINDOW_MS } from '../../../src/bounces/webhooks/mailgun.js';
import { createBounceRoutes } from '../../../src/bounces/http/bounce-routes.js';
import { formsDoorAnswers } from '../../../src/forms/http/form-routes.js';
import { createFrontDoor } from '../../../src/http/front-door.js';
import { UnavailableError } from '../../../src/kit/unavailable-error.js';
import {
  MAILGUN_SIGNING_KEY,
  mailgunFailure,
  mailgunRequest,
  POSTMARK_CREDENTIALS,
  postmarkRequest,
  sendgridKeys,
  sendgridRequest,
  sesBounce,
  SNS_CERT_URL,
  SNS_TOPIC,
  snsCertificate,
  snsRequest,
  type ProviderRequest,
} from '../../support/bounce-webhooks.js';
import { createTestClock, type TestClock } from '../../support/clock.js';
import { driveService, type ServiceDriver } from '../../support/http.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';

const MAX_BODY_BYTES = 16_384;
const keys = sendgridKeys();
const ALL: BounceWebhookSettings = {
  postmark: POSTMARK_CREDENTIALS,
  ses: { topicArns: [SNS_TOPIC] },
  sendgrid: { publicKey: keys.publicKeyBase64 },
  mailgun: { signingKey: MAILGUN_SIGNING_KEY },
};
const CONFIRM_PREFIX = 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription';

interface Harness {
  app: ServiceDriver;
  reports: BounceReport[];
  fetched: string[];
  logs: LogCapture;
  clock: TestClock;
  /** What the sink does with the next report: reject with this error. */
  failNext(error: Error): void;
  /** Fetches of SNS URLs fail from now on. */
  amazonDown(): void;
  post(provider: string, request: ProviderRequest): ReturnType<ServiceDriver['inject']>;
}

function harness(settings: BounceWebhookSettings = ALL): Harness {
  const reports: BounceReport[] = [];
  const fetched: string[] = [];
  let failure: Error | undefined;
  let down = false;
  const sink: BounceSink = {
    async record(report): Promise<BounceOutcome> {
      const error = failure;
      failure = undefined;
      if (error) throw error;
      reports.push(report);
      return 'counted';
    },
  };
  const fetchText = async (url: string) => {
    fetched.push(url);
    if (down) throw new Error('network');
    if (url === SNS_CERT_URL) return snsCertificate().pem;
    if (url.startsWith(CONFIRM_PREFIX)) return '<ConfirmSubscriptionResponse/>';
    throw new Error('http_404');
  };
  const logs = captureLogs();
  const clock = createTestClock(Date.now());
  const webhooks = createBounceWebhooks(settings, { sink, clock, logger: logs.logger, fetchText });
  const handle = createFrontDoor({ routes: createBounceRoutes(webhooks, MAX_BODY_BYTES), answers: formsDoorAnswers, clientAddressOf: () => '127.0.0.1', requestLog: logs.requestLog, logger: logs.logger });
  const app = driveService({ handle, serverSettings: { maxBodyBytes: MAX_BODY_BYTES } });
  return {
    app,
    reports,
    fetched,
    logs,
    clock,
    failNext: (error) => (failure = error),
    amazonDown: () => (down = true),
    post: (provider, request) => app.inject({ method: 'POST', url: `/bounces/${provider}`, headers: request.headers, payload: request.body }),
  };
}

describe('POST /bounces/postmark', () => {
  let test: Harness;
  beforeEach(() => (test = harness()));
  const bounce = { RecordType: 'Bounce', Type: 'HardBounce', Email: 'gone@example.org', From: 'forms@example.com', BouncedAt: '2024-05-01T11:00:00Z', Details: 'smtp;550 5.1.1 unknown' };

  it('answers 200 once the sink took the report', async () => {
    const response = await test.post('postmark', postmarkRequest(bounce));
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { ok: true });
    assert.deepEqual(
      test.reports.map((report) => [report.source, report.kind, report.recipient]),
      [['postmark', 'hard', 'gone@example.org']],
    );
  });

  it('answers 401 with a Basic challenge for wrong credentials, and records nothing', async () => {
    for (const credentials of [{ ...POSTMARK_CREDENTIALS, password: 'guessed-password' }, { ...POSTMARK_CREDENTIALS, username: 'guessed-user' }]) {
      const response = await test.post('postmark', postmarkRequest(bounce, credentials));
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: 'unauthorized' });
      assert.equal(response.headers['www-authenticate'], 'Basic realm="bounces"');
    }
    const { headers, body } = postmarkRequest(bounce);
    delete headers.authorization;
    assert.equal((await test.post('postmark', { headers, body })).statusCode, 401);
    assert.deepEqual(test.reports, []);
    for (const secret of ['guessed-password', 'guessed-user', POSTMARK_CREDENTIALS.password]) assert.ok(!test.logs.text().includes(secret), 'no credential is logged');
  });

  it('answers 400 for a body that is not a Postmark record', async () => {
    const response = await test.post('postmark', { ...postmarkRequest(bounce), body: '{"hello":' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, 'invalid_body');
  });

  it('answers 413 for a body over max_body_bytes, without handing anything on', async () => {
    const response = await test.post('postmark', postmarkRequest({ ...bounce, Details: 'x'.repeat(MAX_BODY_BYTES) }));
    assert.equal(response.statusCode, 413);
    assert.deepEqual(test.reports, []);
  });

  it('answers 503 when the sink cannot reach its store, 500 when it fails otherwise: the provider tries again', async () => {
    test.failNext(new UnavailableError('postgres'));
    assert.equal((await test.post('postmark', postmarkRequest(bounce))).statusCode, 503);
    test.failNext(new TypeError('broken'));
    assert.equal((await test.post('postmark', postmarkRequest(bounce))).statusCode, 500);
    assert.equal((await test.post('postmark', postmarkRequest(bounce))).statusCode, 200);
    assert.equal(test.reports.length, 1);
  });
});

describe('POST /bounces/ses', () => {
  let test: Harness;
  beforeEach(() => (test = harness()));
  const notification = sesBounce([{ emailAddress: 'gone@example.org', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }, { emailAddress: 'other@example.org', status: '5.1.1' }]);

  it('answers 200 for a signed notification of an allowed topic, fetching the certificate once', async () => {
    for (const version of ['1', '2'] as const) {
      const response = await test.post('ses', snsRequest(notification, { version }));
      assert.equal(response.statusCode, 200, response.body);
    }
    assert.deepEqual(
      test.reports.map((report) => [report.source, report.kind, report.recipient, report.sentTo[0]]),
      [
        ['ses', 'hard', 'gone@example.org', 'bounces+tag@example.com'],
        ['ses', 'hard', 'other@example.org', 'bounces+tag@example.com'],
        ['ses', 'hard', 'gone@example.org', 'bounces+tag@example.com'],
        ['ses', 'hard', 'other@example.org', 'bounces+tag@example.com'],
      ],
    );
    assert.deepEqual(test.fetched, [SNS_CERT_URL]);
  });

  it('answers 401, fetching nothing, for a topic not in topic_arns or a certificate off the SNS host', async () => {
    const otherTopic = await test.post('ses', snsRequest(notification, { topic: 'arn:aws:sns:eu-west-1:123456789012:someone-else' }));
    const foreignCert = await test.post('ses', snsRequest(notification, { certUrl: 'https://evil.example/SimpleNotificationService-1.pem' }));
    assert.deepEqual([otherTopic.statusCode, foreignCert.statusCode], [401, 401]);
    assert.deepEqual(test.fetched, []);
    assert.deepEqual(test.reports, []);
  });

  it('answers 401 for a message whose signature does not verify', async () => {
    const { headers, fields } = snsRequest(notification);
    const tampered = JSON.stringify({ ...fields, Message: JSON.stringify(sesBounce([{ emailAddress: 'victim@example.org', status: '5.1.1' }])) });
    assert.equal((await test.post('ses', { headers, body: tampered })).statusCode, 401);
    assert.deepEqual(test.reports, []);
    assert.equal(test.logs.lines().find((line) => line.event === 'bounce_webhook_refused')?.why, 'wrong signature');
  });

  it('confirms a subscription to an allowed topic by fetching its SubscribeURL, and no other', async () => {
    const confirmation = snsRequest('You have chosen to subscribe to the topic', { type: 'SubscriptionConfirmation' });
    assert.equal((await test.post('ses', confirmation)).statusCode, 200);
    assert.equal(test.fetched.filter((url) => url.startsWith(CONFIRM_PREFIX)).length, 1);

    const foreign = snsRequest('You have chosen to subscribe', { type: 'SubscriptionConfirmation', topic: 'arn:aws:sns:eu-west-1:123456789012:other' });
    assert.equal((await test.post('ses', foreign)).statusCode, 401);
    const offHost = snsRequest('You have chosen to subscribe', { type: 'SubscriptionConfirmation', subscribeUrl: 'https://evil.example/confirm' });
    assert.equal((await test.post('ses', offHost)).statusCode, 400);
    assert.equal(test.fetched.filter((url) => !url.endsWith('.pem')).length, 1);
    assert.equal(test.logs.lines().filter((line) => line.event === 'sns_subscription_confirmed').length, 1);
  });

  it('answers 503 when the certificate cannot be fetched, and fetches it again for the next message', async () => {
    test.amazonDown();
    assert.equal((await test.post('ses', snsRequest(notification))).statusCode, 503);
    assert.equal((await test.post('ses', snsRequest(notification))).statusCode, 503);
    assert.equal(test.fetched.length, 2);
  });

  it('answers 400 for a body that is not an SNS message, or a signed message that is not an SES notification', async () => {
    assert.equal((await test.post('ses', { headers: {}, body: '{"Type":"Notification"}' })).statusCode, 400);
    assert.equal((await test.post('ses', snsRequest('plain text published to the topic'))).statusCode, 400);
    assert.deepEqual(test.reports, []);
  });
});

describe('POST /bounces/sendgrid', () => {
  let test: Harness;
  beforeEach(() => (test = harness()));
  const events = [
    { email: 'gone@example.org', timestamp: 1714564700, event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 unknown' },
    { email: 'late@example.org', timestamp: 1714564700, event: 'deferred' },
    { email: 'angry@example.org', timestamp: 1714564701, event: 'spamreport' },
  ];

  it('answers 200 for a batch signed with the configured key', async () => {
    assert.equal((await test.post('sendgrid', sendgridRequest(events, keys.privateKey))).statusCode, 200);
    assert.deepEqual(
      test.reports.map((report) => [report.kind, report.recipient]),
      [
        ['hard', 'gone@example.org'],
        ['complaint', 'angry@example.org'],
      ],
    );
  });

  it('answers 401 for a batch signed with another key, or changed after signing', async () => {
    assert.equal((await test.post('sendgrid', sendgridRequest(events, sendgridKeys().privateKey))).statusCode, 401);
    const signed = sendgridRequest(events, keys.privateKey);
    assert.equal((await test.post('sendgrid', { ...signed, body: signed.body.replace('gone@', 'victim@') })).statusCode, 401);
    assert.deepEqual(test.reports, []);
  });

  it('answers 400 for a signed body that is not a batch of events', async () => {
    assert.equal((await test.post('sendgrid', sendgridRequest({ event: 'bounce' } as unknown as object[], keys.privateKey))).statusCode, 400);
  });
});

describe('POST /bounces/mailgun', () => {
  let test: Harness;
  beforeEach(() => (test = harness()));
  const now = () => test.clock() / 1000;

  it('answers 200 for a signed, fresh event', async () => {
    assert.equal((await test.post('mailgun', mailgunRequest(mailgunFailure('gone@example.org'), { timestampSeconds: now() }))).statusCode, 200);
    assert.deepEqual(
      test.reports.map((report) => [report.source, report.kind, report.recipient, report.sentTo]),
      [['mailgun', 'hard', 'gone@example.org', ['bounces+tag@example.com', 'forms@example.com']]],
    );
  });

  it('answers 401 for another signing key and for a timestamp outside the window', async () => {
    assert.equal((await test.post('mailgun', mailgunRequest(mailgunFailure('a@example.org'), { timestampSeconds: now(), signingKey: 'another-key' }))).statusCode, 401);
    const stale = mailgunRequest(mailgunFailure('a@example.org'), { timestampSeconds: (test.clock() - MAILGUN_WINDOW_MS - 60_000) / 1000, token: 'stale-token' });
    assert.equal((await test.post('mailgun', stale)).statusCode, 401);
    assert.deepEqual(test.reports, []);
  });

  it('takes a token once: a replay is 401, even in a concurrent burst', async () => {
    const request = mailgunRequest(mailgunFailure('gone@example.org'), { timestampSeconds: now(), token: 'burst-token' });
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => test.post('mailgun', request)))).map((response) => response.statusCode);
    assert.deepEqual(statuses.sort(), [200, 401, 401, 401, 401, 401]);
    assert.equal((await test.post('mailgun', request)).statusCode, 401);
    assert.equal(test.reports.length, 1);
    assert.equal(test.logs.lines().filter((line) => line.why === 'replayed token').length, 6);
  });

  it('lets the provider retry a delivery the sink failed, with the same token', async () => {
    const request = mailgunRequest(mailgunFailure('gone@example.org'), { timestampSeconds: now(), token: 'retried-token' });
    test.failNext(new UnavailableError('postgres'));
    assert.equal((await test.post('mailgun', request)).statusCode, 503);
    assert.equal((await test.post('mailgun', request)).statusCode, 200);
    assert.equal(test.reports.length, 1);
  });

  it('answers 400 for a body without signature or event-data', async () => {
    assert.equal((await test.post('mailgun', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'event=failed&recipient=a%40example.org' })).statusCode, 400);
  });
});

describe('a provider that is not configured', () => {
  it('answers 404 not_found, whatever the request', async () => {
    const test = harness({ postmark: POSTMARK_CREDENTIALS });
    for (const [provider, request] of [
      ['ses', snsRequest(sesBounce([{ emailAddress: 'a@example.org' }]))],
      ['sendgrid', sendgridRequest([], keys.privateKey)],
      ['mailgun', mailgunRequest(mailgunFailure('a@example.org'), { timestampSeconds: test.clock() / 1000 })],
      ['unknown', postmarkRequest({})],
    ] as const) {
      const response = await test.post(provider, request);
      assert.equal(response.statusCode, 404, provider);
      assert.deepEqual(response.json(), { error: 'not_found' });
    }
    assert.deepEqual(test.fetched, []);
  });

  it('answers 405 for another method on a configured provider', async () => {
    const response = await harness().app.inject({ method: 'GET', url: '/bounces/postmark' });
    assert.equal(response.statusCode, 405);
    assert.equal(response.headers.allow, 'POST');
  });
});

describe('the SendGrid key', () => {
  it('stops the start when it is not an elliptic-curve public key, naming the setting', () => {
    assert.throws(() => harness({ sendgrid: { publicKey: 'bm90IGEga2V5' } }), /mail\.bounces\.webhooks\.sendgrid\.public_key/);
  });
});
