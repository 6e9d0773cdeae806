// Amazon SES notifications delivered by mail (an SNS e-mail subscription): the body is the JSON of a Bounce,
// Complaint or Delivery notification, bare or wrapped in the SNS envelope whose "Message" holds it as a string.

export type SesNotification =
  | { type: 'bounce'; permanent: boolean; recipient?: string; status?: string; diagnostic?: string }
  | { type: 'complaint'; recipient?: string; reason: string }
  | { type: 'delivery'; recipient?: string };

/** The SES notification in `text`, if the text is one. */
export function sesNotificationIn(text: string): SesNotification | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start || !/notificationType|eventType/.test(text)) return undefined;
  let data = parseJson(text.slice(start, end + 1));
  if (isRecord(data) && typeof data.Message === 'string') data = parseJson(data.Message);
  if (!isRecord(data)) return undefined;
  const type = String(data.notificationType ?? data.eventType ?? '').toLowerCase();
  if (type === 'bounce' && isRecord(data.bounce)) {
    const first = firstRecord(data.bounce.bouncedRecipients);
    return {
      type: 'bounce',
      permanent: String(data.bounce.bounceType ?? '').toLowerCase() === 'permanent',
      recipient: stringOf(first?.emailAddress)?.toLowerCase(),
      status: stringOf(first?.status),
      diagnostic: stringOf(first?.diagnosticCode)?.replace(/^[\w-]+[ \t]*;[ \t]*/, ''),
    };
  }
  if (type === 'complaint' && isRecord(data.complaint)) {
    const first = firstRecord(data.complaint.complainedRecipients);
    return { type: 'complaint', recipient: stringOf(first?.emailAddress)?.toLowerCase(), reason: stringOf(data.complaint.complaintFeedbackType) ?? 'abuse' };
  }
  if (type === 'delivery') {
    const recipients = isRecord(data.delivery) ? data.delivery.recipients : undefined;
    return { type: 'delivery', recipient: Array.isArray(recipients) ? stringOf(recipients[0])?.toLowerCase() : undefined };
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Mail systems fold long lines: joined back, the JSON often reads.
    try {
      return JSON.parse(text.replace(/\n /g, ' ').replace(/\n/g, ''));
    } catch {
      return undefined;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstRecord(value: unknown): Record<string, unknown> | undefined {
  return Array.isArray(value) && isRecord(value[0]) ? value[0] : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
