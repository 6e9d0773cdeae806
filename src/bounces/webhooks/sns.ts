// Amazon SNS messages, as SES's bounce and complaint notifications arrive (docs/bounces.md "Where bounces come
// from"): reading the envelope, the URLs it may name, and its signature. A message is trusted only when its
// signature verifies with the certificate at `SigningCertURL`, and that URL must be Amazon's own SNS host, or
// anyone could sign with a certificate of their own.
import { createVerify, X509Certificate } from 'node:crypto';
import { isObject, parseJson, textOf, type JsonObject } from './parsed-webhook.js';

export type SnsMessageType = 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';

/** The fields of an SNS message that its signature covers, and the signature. */
export interface SnsMessage {
  type: SnsMessageType;
  messageId: string;
  topicArn: string;
  message: string;
  timestamp: string;
  subject?: string;
  /** Confirmations only: where a subscription is confirmed, and the token in it. */
  subscribeUrl?: string;
  token?: string;
  signatureVersion: '1' | '2';
  signature: string;
  signingCertUrl: string;
}

const TYPES: readonly string[] = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'];

/** The SNS message in `body`, or undefined when it is not one (a field missing, an unknown type or version). */
export function parseSnsMessage(body: Buffer | string): SnsMessage | undefined {
  const value = parseJson(body);
  if (!isObject(value)) return undefined;
  const type = textOf(value, 'Type');
  const signatureVersion = textOf(value, 'SignatureVersion');
  const required = {
    messageId: textOf(value, 'MessageId'),
    topicArn: textOf(value, 'TopicArn'),
    message: rawText(value, 'Message'),
    timestamp: textOf(value, 'Timestamp'),
    signature: textOf(value, 'Signature'),
    signingCertUrl: textOf(value, 'SigningCertURL'),
  };
  if (type === undefined || !TYPES.includes(type)) return undefined;
  if (signatureVersion !== '1' && signatureVersion !== '2') return undefined;
  if (Object.values(required).some((field) => field === undefined)) return undefined;
  const message: SnsMessage = { type: type as SnsMessageType, signatureVersion, ...(required as Omit<SnsMessage, 'type' | 'signatureVersion'>) };
  const subject = rawText(value, 'Subject');
  if (subject !== undefined) message.subject = subject;
  if (type !== 'Notification') {
    const subscribeUrl = textOf(value, 'SubscribeURL');
    const token = textOf(value, 'Token');
    if (subscribeUrl === undefined || token === undefined) return undefined;
    message.subscribeUrl = subscribeUrl;
    message.token = token;
  }
  return message;
}

/** A string field as it was sent, untrimmed: the signature covers its exact text. */
function rawText(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether `url` is on Amazon's SNS host of a region (`https://sns.<region>.amazonaws.com/...`, `.com.cn` in
 * China): no other scheme, port or credentials. With `pem`, it must also name a `.pem` file.
 */
export function isSnsUrl(url: string, options: { pem?: boolean } = {}): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return false;
  if (!/^sns\.[a-z]{2}(?:-[a-z]+)+-\d+\.amazonaws\.com(?:\.cn)?$/.test(parsed.hostname)) return false;
  return !options.pem || parsed.pathname.endsWith('.pem');
}

/** The text SNS signs: the covered fields of the message's type, each as `Name\nvalue\n`, in this order. */
export function snsStringToSign(message: SnsMessage): string {
  const fields: Array<[string, string | undefined]> =
    message.type === 'Notification'
      ? [
          ['Message', message.message],
          ['MessageId', message.messageId],
          ['Subject', message.subject],
          ['Timestamp', message.timestamp],
          ['TopicArn', message.topicArn],
          ['Type', message.type],
        ]
      : [
          ['Message', message.message],
          ['MessageId', message.messageId],
          ['SubscribeURL', message.subscribeUrl],
          ['Timestamp', message.timestamp],
          ['Token', message.token],
          ['TopicArn', message.topicArn],
          ['Type', message.type],
        ];
  return fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}\n${value}\n`)
    .join('');
}

/**
 * Whether `message` is signed by the key of `certificatePem`: RSA with SHA1 for SignatureVersion 1, SHA256 for
 * 2. A certificate that cannot be read, or has expired, verifies nothing.
 */
export function verifySnsSignature(message: SnsMessage, certificatePem: string, now: number): boolean {
  try {
    const certificate = new X509Certificate(certificatePem);
    if (Date.parse(certificate.validTo) < now || Date.parse(certificate.validFrom) > now) return false;
    const verifier = createVerify(message.signatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    verifier.update(snsStringToSign(message), 'utf8');
    return verifier.verify(certificate.publicKey, message.signature, 'base64');
  } catch {
    return false;
  }
}
