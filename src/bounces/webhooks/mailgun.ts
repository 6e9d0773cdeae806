// Mailgun's webhooks (docs/bounces.md "Where bounces come from"): a JSON body holding `signature` (timestamp, token
// and their HMAC-SHA256 under the signing key) and `event-data`. The signature covers only the timestamp and the
// token, so a captured request could be sent again: a timestamp older than the window is refused, and a token is
// taken once (replay-guard.ts). `failed` events are bounces, `complained` ones complaints; the rest is skipped.
import { createHmac } from 'node:crypto';
import type { BounceKind, BounceReport } from '../bounce-report.js';
import { enhancedStatusIn, failureKind } from './delivery-status.js';
import { addressesIn, addressOf, isObject, objectOf, parseJson, reportOf, textOf, timeOf, type JsonObject } from './parsed-webhook.js';
import { sameSecret } from './secrets.js';

/** How far a signature's timestamp may be from now, either way. */
export const MAILGUN_WINDOW_MS = 15 * 60_000;

export interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

/** A Mailgun body read: its signature and the reports of its event. */
export type ParsedMailgun = { ok: true; signature: MailgunSignature; reports: BounceReport[] } | { ok: false; problem: string };

/** Whether `signature` is the HMAC-SHA256 (hex) of timestamp followed by token under `signingKey`. */
export function isMailgunSigned(signingKey: string, signature: MailgunSignature): boolean {
  const expected = createHmac('sha256', signingKey).update(signature.timestamp + signature.token).digest('hex');
  return sameSecret(signature.signature.toLowerCase(), expected);
}

/** Whether the signature's timestamp (seconds) is within MAILGUN_WINDOW_MS of `now`. */
export function isMailgunFresh(signature: MailgunSignature, now: number): boolean {
  const at = Number(signature.timestamp) * 1000;
  return Number.isFinite(at) && Math.abs(now - at) <= MAILGUN_WINDOW_MS;
}

/**
 * A permanent failure's kind from Mailgun's `reason`: an address Mailgun itself suppresses for a bounce or a
 * complaint, one it gave up on after trying for long (`old`: soft), else what the server replied.
 */
function kindOfFailure(eventData: JsonObject): BounceKind {
  if (textOf(eventData, 'severity') !== 'permanent') return 'soft';
  const reason = textOf(eventData, 'reason');
  if (reason === 'suppress-bounce') return 'hard';
  if (reason === 'suppress-complaint') return 'complaint';
  if (reason === 'suppress-unsubscribe') return 'none';
  if (reason === 'old') return 'soft';
  const status = objectOf(eventData, 'delivery-status');
  const code = typeof status?.code === 'number' ? status.code : Number(textOf(status, 'code') ?? Number.NaN);
  return failureKind({ status: statusOf(status), text: replyOf(status), code: Number.isFinite(code) ? code : undefined }, 'hard');
}

function replyOf(status: JsonObject | undefined): string | undefined {
  return [textOf(status, 'message'), textOf(status, 'description')].filter(Boolean).join(' ') || undefined;
}

function statusOf(status: JsonObject | undefined): string | undefined {
  return enhancedStatusIn(textOf(status, 'enhanced-code')) ?? enhancedStatusIn(replyOf(status));
}

/** The signature and reports of a Mailgun body. */
export function parseMailgun(body: Buffer | string, now: number): ParsedMailgun {
  const value = parseJson(body);
  if (!isObject(value)) return { ok: false, problem: 'not a JSON object' };
  const signed = objectOf(value, 'signature');
  const signature = { timestamp: textOf(signed, 'timestamp') ?? numberText(signed?.timestamp), token: textOf(signed, 'token'), signature: textOf(signed, 'signature') };
  if (signature.timestamp === undefined || signature.token === undefined || signature.signature === undefined) return { ok: false, problem: 'no signature' };
  const eventData = objectOf(value, 'event-data');
  if (eventData === undefined) return { ok: false, problem: 'no event-data' };
  return { ok: true, signature: signature as MailgunSignature, reports: reportsOf(eventData, now) };
}

function numberText(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

function reportsOf(eventData: JsonObject, now: number): BounceReport[] {
  const event = textOf(eventData, 'event');
  if (event !== 'failed' && event !== 'complained') return [];
  const recipient = addressOf(textOf(eventData, 'recipient'));
  if (recipient === undefined) return [];
  const envelope = objectOf(eventData, 'envelope');
  const headers = objectOf(objectOf(eventData, 'message'), 'headers');
  const status = objectOf(eventData, 'delivery-status');
  const kind = event === 'complained' ? 'complaint' : kindOfFailure(eventData);
  return [
    reportOf({
      source: 'mailgun',
      kind,
      recipient,
      status: event === 'failed' ? statusOf(status) : undefined,
      reason: event === 'complained' ? 'complained' : [`${textOf(eventData, 'severity') ?? 'failed'}/${textOf(eventData, 'reason') ?? 'unknown'}`, replyOf(status)].filter(Boolean).join(': '),
      // The envelope sender carries the VERP tag; the From is what Mailgun shows of the original message.
      sentTo: addressesIn(textOf(envelope, 'sender'), textOf(headers, 'from')),
      at: timeOf(eventData.timestamp, now),
    }),
  ];
}
