// SendGrid's signed Event Webhook (docs/bounces.md "Where bounces come from"): a JSON array of events, signed with
// ECDSA (P-256, SHA-256) over the timestamp header followed by the raw body; the configured public key is the one
// SendGrid shows (base64 DER, or PEM). The signature covers the body, but a signed request sent again later would
// still verify: one whose timestamp is more than SENDGRID_WINDOW_MS from now is refused. Only `bounce`, `dropped` and `spamreport` events say anything about an
// address; the others are skipped.
import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import type { BounceKind } from '../bounce-report.js';
import { enhancedStatusIn, failureKind } from './delivery-status.js';
import { addressesIn, addressOf, isObject, notTheFormat, parseJson, reportOf, textOf, timeOf, type JsonObject, type ParsedWebhook } from './parsed-webhook.js';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** How far a request's signed timestamp may be from now, either way (clocks differ): Mailgun's window too. */
export const SENDGRID_WINDOW_MS = 15 * 60_000;

/** Whether `timestamp` (the signed header, seconds since 1970) is within SENDGRID_WINDOW_MS of `now`. */
export function isSendgridFresh(timestamp: string | undefined, now: number): boolean {
  if (timestamp === undefined || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  return Math.abs(now - Number(timestamp) * 1000) <= SENDGRID_WINDOW_MS;
}

/** The verification key of `value` (base64 DER as SendGrid shows it, or PEM); throws when it is not an EC public key. */
export function sendgridPublicKey(value: string): KeyObject {
  const text = value.trim();
  const key = text.includes('-----BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec') throw new TypeError('not an elliptic-curve public key');
  return key;
}

/** Whether `signature` (base64 DER ECDSA) signs `timestamp` followed by `body` with `publicKey`. */
export function isSendgridSigned(publicKey: KeyObject, signature: string | undefined, timestamp: string | undefined, body: Buffer): boolean {
  if (signature === undefined || timestamp === undefined || signature === '' || timestamp === '') return false;
  try {
    return createVerify('sha256').update(timestamp, 'utf8').update(body).verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** How a `dropped` event's reason reads: an address SendGrid already suppresses for a bounce or a complaint. */
const DROPPED_KINDS: ReadonlyArray<[RegExp, BounceKind]> = [
  [/bounced address|^invalid$/i, 'hard'],
  [/spam report/i, 'complaint'],
];

/** The kind of one event, or undefined for an event that is not a bounce at all (delivered, open, deferred, ...). */
export function kindOfSendgridEvent(event: JsonObject): BounceKind | undefined {
  const name = textOf(event, 'event');
  if (name === 'spamreport') return 'complaint';
  if (name === 'dropped') return DROPPED_KINDS.find(([pattern]) => pattern.test(textOf(event, 'reason') ?? ''))?.[1] ?? 'none';
  if (name !== 'bounce') return undefined;
  if (textOf(event, 'type') === 'blocked') return 'soft';
  return failureKind({ status: statusOf(event), text: textOf(event, 'reason') }, 'soft');
}

function statusOf(event: JsonObject): string | undefined {
  return enhancedStatusIn(textOf(event, 'status')) ?? enhancedStatusIn(textOf(event, 'reason'));
}

/** The reports of a SendGrid event batch. */
export function parseSendgrid(body: Buffer | string, now: number): ParsedWebhook {
  const events = parseJson(body);
  if (!Array.isArray(events) || !events.every(isObject)) return notTheFormat('not a JSON array of events');
  const reports = [];
  for (const event of events) {
    const kind = kindOfSendgridEvent(event);
    const recipient = addressOf(textOf(event, 'email'));
    if (kind === undefined || recipient === undefined) continue;
    const name = textOf(event, 'event')!;
    reports.push(
      reportOf({
        source: 'sendgrid',
        kind,
        recipient,
        status: statusOf(event),
        reason: [textOf(event, 'type') ?? name, textOf(event, 'reason')].filter(Boolean).join(': '),
        // SendGrid reports no envelope sender; a mail can pass one on as the `return_path` custom argument.
        sentTo: addressesIn(textOf(event, 'return_path')),
        at: timeOf(event.timestamp, now),
      }),
    );
  }
  return { ok: true, reports };
}
