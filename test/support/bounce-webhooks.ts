// Requests as the four bounce providers send them (docs/bounces.md "Where bounces come from"), signed with keys the
// test made: Postmark's basic auth, an SNS message signed with a self-signed certificate's key, a SendGrid batch
// signed with a fresh P-256 key, a Mailgun event with its HMAC. Each gives the headers and the raw body.
import { createHmac, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { selfSignedCertificate, type TestCertificate } from './self-signed-certificate.js';

export interface ProviderRequest {
  headers: Record<string, string>;
  body: string;
}

export const POSTMARK_CREDENTIALS = { username: 'postmark-hook', password: 'a long webhook password' };

/** A Postmark record posted with `credentials` as basic auth. */
export function postmarkRequest(record: object, credentials = POSTMARK_CREDENTIALS): ProviderRequest {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  return { headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(record) };
}

export const SNS_TOPIC = 'arn:aws:sns:eu-west-1:123456789012:postbox-bounces';
export const SNS_CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem';

let certificate: TestCertificate | undefined;

/**
 * The certificate SNS messages are signed with here, made once per process: valid from 2020 (test clocks stand in
 * 2024) until a year from now.
 */
export function snsCertificate(): TestCertificate {
  certificate ??= selfSignedCertificate({ notBefore: Date.UTC(2020, 0, 1), notAfter: Date.now() + 365 * 86_400_000 });
  return certificate;
}

/**
 * An SNS message of `type` carrying `message` (an object is sent as its JSON text), signed as SNS signs
 * (SignatureVersion 1: SHA1, 2: SHA256) with `key` (the test certificate's unless given).
 */
export function snsRequest(
  message: object | string,
  options: { type?: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation'; topic?: string; version?: '1' | '2'; certUrl?: string; key?: KeyObject; subscribeUrl?: string; subject?: string } = {},
): ProviderRequest & { fields: Record<string, string> } {
  const type = options.type ?? 'Notification';
  const fields: Record<string, string> = {
    Type: type,
    MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
    TopicArn: options.topic ?? SNS_TOPIC,
    Message: typeof message === 'string' ? message : JSON.stringify(message),
    Timestamp: '2024-05-01T12:00:00.000Z',
    SignatureVersion: options.version ?? '2',
    SigningCertURL: options.certUrl ?? SNS_CERT_URL,
  };
  if (options.subject !== undefined) fields.Subject = options.subject;
  if (type !== 'Notification') {
    fields.SubscribeURL = options.subscribeUrl ?? `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${fields.TopicArn}&Token=2336412f37`;
    fields.Token = '2336412f37';
  }
  const covered = type === 'Notification' ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  const text = covered
    .filter((name) => fields[name] !== undefined)
    .map((name) => `${name}\n${fields[name]}\n`)
    .join('');
  fields.Signature = createSign(fields.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(text)
    .sign(options.key ?? snsCertificate().privateKey, 'base64');
  // SNS posts with text/plain.
  return { headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': type }, body: JSON.stringify(fields), fields };
}

/** An SES bounce notification for `recipients`, sent with the envelope sender `source`. */
export function sesBounce(recipients: Array<{ emailAddress: string; status?: string; diagnosticCode?: string }>, bounceType = 'Permanent', bounceSubType = 'General', source = 'bounces+tag@example.com'): object {
  return {
    notificationType: 'Bounce',
    bounce: { bounceType, bounceSubType, bouncedRecipients: recipients.map((recipient) => ({ action: 'failed', ...recipient })), timestamp: '2024-05-01T11:59:00.000Z', feedbackId: 'f-1' },
    mail: { timestamp: '2024-05-01T11:58:00.000Z', source, messageId: 'm-1', destination: recipients.map((recipient) => recipient.emailAddress), commonHeaders: { from: ['Site <forms@example.com>'] } },
  };
}

export interface SendgridKeys {
  privateKey: KeyObject;
  /** Base64 DER (SubjectPublicKeyInfo), as SendGrid shows the verification key. */
  publicKeyBase64: string;
  publicKeyPem: string;
}

/** A fresh P-256 key pair. */
export function sendgridKeys(): SendgridKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'), publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A SendGrid event batch signed with `privateKey` over timestamp + body, the timestamp now unless given. */
export function sendgridRequest(events: object[], privateKey: KeyObject, timestamp = String(Math.floor(Date.now() / 1000))): ProviderRequest {
  const body = JSON.stringify(events);
  const signature = createSign('sha256').update(timestamp + body).sign(privateKey, 'base64');
  return {
    headers: { 'content-type': 'application/json', 'x-twilio-email-event-webhook-signature': signature, 'x-twilio-email-event-webhook-timestamp': timestamp },
    body,
  };
}

export const MAILGUN_SIGNING_KEY = 'key-0123456789abcdef0123456789abcdef';

/** A Mailgun event signed with `signingKey` at `timestampSeconds` with `token`. */
export function mailgunRequest(eventData: object, options: { timestampSeconds: number; token?: string; signingKey?: string }): ProviderRequest {
  const timestamp = String(options.timestampSeconds);
  const token = options.token ?? 'a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0';
  const signature = createHmac('sha256', options.signingKey ?? MAILGUN_SIGNING_KEY)
    .update(timestamp + token)
    .digest('hex');
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData }) };
}

/** A Mailgun `failed` event for `recipient`. */
export function mailgunFailure(recipient: string, options: { severity?: 'permanent' | 'temporary'; reason?: string; code?: number; message?: string; timestamp?: number } = {}): object {
  return {
    event: 'failed',
    severity: options.severity ?? 'permanent',
    reason: options.reason ?? 'bounce',
    recipient,
    timestamp: options.timestamp ?? 1714564790.5,
    'delivery-status': { code: options.code ?? 550, message: options.message ?? '5.1.1 The email account that you tried to reach does not exist', description: '', 'attempt-no': 1 },
    envelope: { sender: 'Bounces+Tag@example.com', targets: recipient, transport: 'smtp' },
    message: { headers: { to: recipient, 'message-id': 'x@example.com', from: 'Site <forms@example.com>', subject: 'Your message' } },
  };
}
