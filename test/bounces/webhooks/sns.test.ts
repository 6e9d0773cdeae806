// SNS messages (src/bounces/webhooks/sns.ts): the envelope, the certificate URL that must be Amazon's, and the
// signature (versions 1 and 2), checked with a certificate the test made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSnsUrl, parseSnsMessage, snsStringToSign, verifySnsSignature } from '../../../src/bounces/webhooks/sns.js';
import { SNS_TOPIC, snsCertificate, snsRequest } from '../../support/bounce-webhooks.js';
import { selfSignedCertificate } from '../../support/self-signed-certificate.js';

const NOW = Date.now();

describe('isSnsUrl', () => {
  const cases: Array<[string, boolean]> = [
    ['https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem', true],
    ['https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-abc.pem', true],
    ['https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem', true],
    ['http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem', false],
    ['https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem', false],
    ['https://evil.example/sns.eu-west-1.amazonaws.com/cert.pem', false],
    ['https://sns.eu-west-1.amazonaws.com:8443/cert.pem', false],
    ['https://user@sns.eu-west-1.amazonaws.com/cert.pem', false],
    ['https://sqs.eu-west-1.amazonaws.com/cert.pem', false],
    ['https://sns.amazonaws.com/cert.pem', false],
    ['https://sns.eu-west-1.amazonaws.com/cert.txt', false],
    ['not a url', false],
  ];
  for (const [url, expected] of cases) it(`${expected ? 'takes' : 'refuses'} ${url} for a certificate`, () => assert.equal(isSnsUrl(url, { pem: true }), expected));
  it('takes a confirmation link on the SNS host, which names no .pem', () => {
    assert.equal(isSnsUrl('https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=x'), true);
  });
});

describe('parseSnsMessage', () => {
  it('reads a notification, keeping the exact text of Message', () => {
    const { body } = snsRequest(' {"a":1}\n', { subject: 'Amazon SES Email Event Notification' });
    const message = parseSnsMessage(body);
    assert.equal(message?.type, 'Notification');
    assert.equal(message?.message, ' {"a":1}\n');
    assert.equal(message?.subject, 'Amazon SES Email Event Notification');
    assert.equal(message?.topicArn, SNS_TOPIC);
  });

  it('refuses a message with a field missing, an unknown type or version, or a confirmation without its link', () => {
    const { fields } = snsRequest('{}', { type: 'SubscriptionConfirmation' });
    const without = (name: string) => JSON.stringify({ ...fields, [name]: undefined });
    for (const body of [without('Signature'), without('TopicArn'), without('SubscribeURL'), JSON.stringify({ ...fields, Type: 'Other' }), JSON.stringify({ ...fields, SignatureVersion: '3' }), '[]', 'x']) {
      assert.equal(parseSnsMessage(body), undefined, body);
    }
  });
});

describe('verifySnsSignature', () => {
  for (const version of ['1', '2'] as const) {
    it(`verifies SignatureVersion ${version} with the certificate, and nothing changed after signing`, () => {
      const { body, fields } = snsRequest({ notificationType: 'Bounce' }, { version, subject: 'S' });
      const message = parseSnsMessage(body)!;
      assert.equal(verifySnsSignature(message, snsCertificate().pem, NOW), true);
      assert.equal(verifySnsSignature({ ...message, message: `${message.message} ` }, snsCertificate().pem, NOW), false);
      assert.equal(verifySnsSignature({ ...message, topicArn: `${fields.TopicArn}2` }, snsCertificate().pem, NOW), false);
      assert.equal(verifySnsSignature({ ...message, subject: undefined }, snsCertificate().pem, NOW), false);
    });
  }

  it('verifies a subscription confirmation over its own fields', () => {
    const message = parseSnsMessage(snsRequest('You have chosen to subscribe', { type: 'SubscriptionConfirmation' }).body)!;
    assert.match(snsStringToSign(message), /^Message\n.*\nMessageId\n.*\nSubscribeURL\n.*\nTimestamp\n.*\nToken\n.*\nTopicArn\n.*\nType\nSubscriptionConfirmation\n$/s);
    assert.equal(verifySnsSignature(message, snsCertificate().pem, NOW), true);
    assert.equal(verifySnsSignature({ ...message, subscribeUrl: 'https://sns.eu-west-1.amazonaws.com/?other' }, snsCertificate().pem, NOW), false);
  });

  it('refuses a signature made with another key, a certificate out of its dates, or one that cannot be read', () => {
    const message = parseSnsMessage(snsRequest('{}').body)!;
    assert.equal(verifySnsSignature(message, selfSignedCertificate().pem, NOW), false);
    const expired = selfSignedCertificate({ notBefore: NOW - 10 * 86_400_000, notAfter: NOW - 86_400_000 });
    assert.equal(verifySnsSignature(parseSnsMessage(snsRequest('{}', { key: expired.privateKey }).body)!, expired.pem, NOW), false);
    assert.equal(verifySnsSignature(message, 'not a certificate', NOW), false);
  });
});
