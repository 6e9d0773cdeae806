// What Amazon SES says in the `Message` of a signed SNS notification (docs/bounces.md "Where bounces come from"):
// a Bounce (one report per bounced recipient), a Complaint (one per complaining recipient), or something else
// (Delivery, the subscription notice) that carries no bounce. Both SES's notifications (`notificationType`) and
// its event publishing (`eventType`) have this shape.
import type { BounceKind } from '../bounce-report.js';
import { failureKind } from './delivery-status.js';
import { addressesIn, addressOf, isObject, notTheFormat, objectOf, parseJson, reportOf, textOf, timeOf, type JsonObject, type ParsedWebhook } from './parsed-webhook.js';

/** Permanent bounces whose sub-type settles the kind whatever the server said. */
const HARD_SUB_TYPES: readonly string[] = ['NoEmail', 'Suppressed', 'OnAccountSuppressionList'];

/**
 * The kind of a bounce: Permanent is hard, except that a `General` or unknown sub-type is judged by the
 * recipient's status and diagnostic (a 5.7.1 spam refusal says nothing against the address) and an
 * `UnsupportedAttachment` is about the message; Transient and Undetermined are soft.
 */
export function kindOfSesBounce(bounceType: string | undefined, bounceSubType: string | undefined, recipient: { status?: string; diagnosticCode?: string }): BounceKind {
  if (bounceType !== 'Permanent') return 'soft';
  if (bounceSubType !== undefined && HARD_SUB_TYPES.includes(bounceSubType)) return 'hard';
  if (bounceSubType === 'UnsupportedAttachment') return 'soft';
  return failureKind({ status: recipient.status, text: recipient.diagnosticCode }, 'hard');
}

/** The reports of SES's notification `message` (the SNS `Message` text). */
export function parseSesNotification(message: string, now: number): ParsedWebhook {
  const notification = parseJson(message);
  if (!isObject(notification)) return notTheFormat('the SNS message is not an SES notification');
  const type = textOf(notification, 'notificationType') ?? textOf(notification, 'eventType');
  if (type === undefined) return notTheFormat('the SNS message is not an SES notification');
  const mail = objectOf(notification, 'mail');
  const sentTo = envelopeAddresses(mail);
  if (type === 'Bounce') {
    const bounce = objectOf(notification, 'bounce');
    if (bounce === undefined) return notTheFormat('a Bounce without bounce');
    const bounceType = textOf(bounce, 'bounceType');
    const bounceSubType = textOf(bounce, 'bounceSubType');
    const at = timeOf(bounce.timestamp, now);
    const reports = recipientsOf(bounce, 'bouncedRecipients').map((entry) => {
      const status = textOf(entry, 'status');
      const diagnosticCode = textOf(entry, 'diagnosticCode');
      return reportOf({
        source: 'ses',
        kind: kindOfSesBounce(bounceType, bounceSubType, { status, diagnosticCode }),
        recipient: addressOf(textOf(entry, 'emailAddress')),
        status: status && /^[245]\.\d{1,3}\.\d{1,3}$/.test(status) ? status : undefined,
        reason: [`${bounceType ?? 'Unknown'}/${bounceSubType ?? 'Unknown'}`, diagnosticCode].filter(Boolean).join(': '),
        sentTo,
        at,
      });
    });
    return reports.length > 0 ? { ok: true, reports } : notTheFormat('a Bounce without bouncedRecipients');
  }
  if (type === 'Complaint') {
    const complaint = objectOf(notification, 'complaint');
    if (complaint === undefined) return notTheFormat('a Complaint without complaint');
    const at = timeOf(complaint.timestamp, now);
    const feedback = textOf(complaint, 'complaintFeedbackType');
    const reports = recipientsOf(complaint, 'complainedRecipients').map((entry) =>
      reportOf({ source: 'ses', kind: 'complaint', recipient: addressOf(textOf(entry, 'emailAddress')), reason: feedback ? `Complaint: ${feedback}` : 'Complaint', sentTo, at }),
    );
    return reports.length > 0 ? { ok: true, reports } : notTheFormat('a Complaint without complainedRecipients');
  }
  return { ok: true, reports: [] };
}

function recipientsOf(parent: JsonObject, key: string): JsonObject[] {
  const list = parent[key];
  return Array.isArray(list) ? list.filter(isObject).filter((entry) => textOf(entry, 'emailAddress') !== undefined) : [];
}

/**
 * Where the VERP tag may be: the envelope sender SES reports (`mail.source`), the Return-Path among the
 * headers it passes on, and the From of the original message.
 */
function envelopeAddresses(mail: JsonObject | undefined): string[] {
  const common = objectOf(mail, 'commonHeaders');
  const headers = Array.isArray(mail?.headers) ? mail.headers.filter(isObject) : [];
  const returnPaths = headers.filter((header) => textOf(header, 'name')?.toLowerCase() === 'return-path').map((header) => textOf(header, 'value'));
  const from = Array.isArray(common?.from) ? common.from.filter((value): value is string => typeof value === 'string') : [];
  return addressesIn(textOf(mail, 'source'), textOf(common, 'returnPath'), ...returnPaths, ...from);
}
