// Complaints (docs/bounces.md "The four kinds"): a recipient marked the mail as spam or asked to be taken off.
// The standard form is an RFC 5965 feedback report (multipart/report; report-type=feedback-report); Outlook.com
// sends its complaints as the returned message alone (marked X-HmXmrOriginalRecipient), and Apple Mail's
// unsubscribe button sends a plain mail marked X-Apple-Unsubscribe.

import { addressesIn } from './addresses.js';
import { headerOf, walkParts, type MimePart } from './mime.js';

export interface Complaint {
  /** The complaining recipient, when the report names one. */
  recipient?: string;
  /** What kind of feedback: "abuse", "opt-out", "auth-failure", ... */
  reason: string;
}

/** The complaint `message` is, if it is one. */
export function complaintIn(message: MimePart): Complaint | undefined {
  const parts = walkParts(message, (part) => part.type !== 'message/rfc822');
  const report = parts.find((part) => part.type === 'message/feedback-report');
  const isArf = report !== undefined || (message.type === 'multipart/report' && /feedback-report/i.test(message.params['report-type'] ?? ''));
  if (isArf) {
    const fields = fieldsOf(report?.text ?? '');
    const returned = parts.find((part) => /^(?:message\/rfc822|text\/rfc822-headers)$/.test(part.type))?.parts[0];
    const recipient =
      addressesIn(fields.get('original-rcpt-to') ?? fields.get('removal-recipient') ?? '')[0] ??
      addressesIn(returned ? (headerOf(returned, 'to') ?? '') : '')[0];
    return { recipient, reason: (fields.get('feedback-type') ?? 'abuse').toLowerCase() };
  }
  for (const part of parts.filter((candidate) => candidate.type === 'message/rfc822')) {
    const hotmail = part.parts[0] && headerOf(part.parts[0], 'x-hmxmroriginalrecipient');
    if (hotmail) return { recipient: addressesIn(hotmail)[0], reason: 'abuse' };
  }
  if (/^true$/i.test((headerOf(message, 'x-apple-unsubscribe') ?? '').trim())) {
    return { recipient: addressesIn(headerOf(message, 'from') ?? '')[0], reason: 'opt-out' };
  }
  return undefined;
}

function fieldsOf(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (match && !fields.has(match[1]!.toLowerCase())) fields.set(match[1]!.toLowerCase(), match[2]!.trim());
  }
  return fields;
}
