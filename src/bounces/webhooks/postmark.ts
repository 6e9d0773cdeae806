// Postmark's bounce and spam-complaint webhooks (docs/bounces.md "Where bounces come from"): the request carries
// the configured username and password as HTTP basic auth, the body is one record. Postmark's `Type` names what
// happened; only the types that say something about the address count as hard or soft.
import type { BounceKind } from '../bounce-report.js';
import { enhancedStatusIn } from './delivery-status.js';
import { addressesIn, addressOf, isObject, notTheFormat, parseJson, reportOf, textOf, timeOf, type ParsedWebhook } from './parsed-webhook.js';
import { sameSecret } from './secrets.js';

export interface PostmarkCredentials {
  username: string;
  password: string;
}

/**
 * Whether `authorization` (the header) is basic auth with exactly `credentials`. Both parts are always
 * compared, each in constant time, so a wrong username takes as long as a wrong password.
 */
export function isPostmarkAuthorized(authorization: string | undefined, credentials: PostmarkCredentials): boolean {
  const match = authorization?.match(/^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const username = colon === -1 ? '' : decoded.slice(0, colon);
  const password = colon === -1 ? '' : decoded.slice(colon + 1);
  const sameUser = sameSecret(username, credentials.username);
  const samePassword = sameSecret(password, credentials.password);
  return Boolean(match) && colon !== -1 && sameUser && samePassword;
}

/**
 * Postmark's bounce `Type`s and what they say about the address. A type not listed (AutoResponder,
 * AddressChange, Subscribe, ChallengeVerification, OpenRelayTest, Unknown, ...) says nothing about it: `none`.
 */
const KIND_OF_TYPE: Readonly<Record<string, BounceKind>> = {
  HardBounce: 'hard',
  BadEmailAddress: 'hard',
  ManuallyDeactivated: 'hard',
  SoftBounce: 'soft',
  Transient: 'soft',
  DnsError: 'soft',
  Blocked: 'soft',
  SpamNotification: 'soft',
  VirusNotification: 'soft',
  DMARCPolicy: 'soft',
  SpamComplaint: 'complaint',
};

/** The kind of a Postmark bounce `Type`. */
export function kindOfPostmarkType(type: string | undefined): BounceKind {
  return (type !== undefined && Object.hasOwn(KIND_OF_TYPE, type) ? KIND_OF_TYPE[type] : undefined) ?? 'none';
}

/**
 * The report of one Postmark record: `Bounce` and `SpamComplaint` records give one; other record types
 * (Delivery, Open, Click, SubscriptionChange) are well-formed but carry no bounce, so they give none.
 */
export function parsePostmark(body: Buffer | string, now: number): ParsedWebhook {
  const record = parseJson(body);
  if (!isObject(record)) return notTheFormat('not a JSON object');
  const recordType = textOf(record, 'RecordType');
  if (recordType === undefined) return notTheFormat('no RecordType');
  if (recordType !== 'Bounce' && recordType !== 'SpamComplaint') return { ok: true, reports: [] };
  const recipient = addressOf(textOf(record, 'Email'));
  if (recipient === undefined) return notTheFormat('no Email');
  const type = textOf(record, 'Type') ?? (recordType === 'SpamComplaint' ? 'SpamComplaint' : undefined);
  const description = textOf(record, 'Details') ?? textOf(record, 'Description');
  return {
    ok: true,
    reports: [
      reportOf({
        source: 'postmark',
        kind: kindOfPostmarkType(type),
        recipient,
        status: enhancedStatusIn(description),
        reason: [type, description].filter(Boolean).join(': ') || undefined,
        // Postmark sends from its own return path; the From of the original message is what it reports.
        sentTo: addressesIn(textOf(record, 'From')),
        at: timeOf(record.BouncedAt, now),
      }),
    ],
  };
}
