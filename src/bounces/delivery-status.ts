// The fields of an RFC 3464 delivery status notification (docs/bounces.md "How a mail is read"): one
// group per recipient with its Action, Status and Diagnostic-Code. They come in a message/delivery-status part,
// or, from mail systems that flatten the report, as the same field lines inside the text: both are read here.

export interface RecipientStatus {
  /** The failed address (Final-Recipient, else Original-Recipient), lower-cased, without its "rfc822;" type. */
  recipient?: string;
  /** failed, delayed, delivered, relayed, expanded (lower-cased), when given. */
  action?: string;
  /** The enhanced status code, e.g. "5.1.1". */
  status?: string;
  /** The Diagnostic-Code text, its "smtp;" type removed. */
  diagnostic?: string;
}

const RECIPIENT_FIELDS = new Set(['final-recipient', 'original-recipient', 'action', 'status', 'diagnostic-code']);

/** The per-recipient groups of a message/delivery-status body. */
export function parseDeliveryStatus(body: string): RecipientStatus[] {
  const groups: Map<string, string>[] = [];
  let fields = new Map<string, string>();
  let last: string | undefined;
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (fields.size > 0) groups.push(fields);
      fields = new Map();
      last = undefined;
      continue;
    }
    if (/^[ \t]/.test(line) && last) {
      fields.set(last, `${fields.get(last)} ${line.trim()}`);
      continue;
    }
    const match = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!match) continue;
    last = match[1]!.toLowerCase();
    if (!fields.has(last)) fields.set(last, match[2]!.trim());
  }
  if (fields.size > 0) groups.push(fields);
  return groups.filter((group) => [...group.keys()].some((name) => RECIPIENT_FIELDS.has(name) && name !== 'diagnostic-code')).map(toRecipient);
}

/**
 * The recipient groups written as field lines inside a text (a report flattened into its notification): a new
 * group starts at each Final-Recipient, or at an Action once the current group has one.
 */
export function scanStatusFields(text: string): RecipientStatus[] {
  const groups: Map<string, string>[] = [];
  let fields: Map<string, string> | undefined;
  let last: string | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^[ \t]+\S/.test(line) && last && fields) {
      fields.set(last, `${fields.get(last)} ${line.trim()}`);
      continue;
    }
    last = undefined;
    const match = /^(Final-Recipient|Original-Recipient|Action|Status|Diagnostic-Code)[ \t]*:[ \t]*(.*)$/i.exec(line);
    if (!match) continue;
    const name = match[1]!.toLowerCase();
    if (!fields || (name === 'final-recipient' && fields.has('final-recipient')) || (name === 'action' && fields.has('action'))) {
      fields = new Map();
      groups.push(fields);
    }
    if (!fields.has(name)) fields.set(name, match[2]!.trim());
    last = name;
  }
  return groups.filter((group) => group.has('action') || group.has('status')).map(toRecipient);
}

function toRecipient(fields: Map<string, string>): RecipientStatus {
  const recipient = addressOf(fields.get('final-recipient')) ?? addressOf(fields.get('original-recipient'));
  const status = /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(fields.get('status') ?? '')?.[1];
  const action = fields.get('action')?.trim().split(/[\s(]/)[0]?.toLowerCase();
  const diagnostic = fields.get('diagnostic-code')?.replace(/^[\w-]+[ \t]*;[ \t]*/, '').trim();
  return { recipient, action: action || undefined, status, diagnostic: diagnostic || undefined };
}

/** The address of an "rfc822; <a@b>" field value, lower-cased. */
function addressOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const address = value.replace(/^[\w-]+[ \t]*;/, '').trim().replace(/^<|>$/g, '').trim();
  return /^[^@\s]+@[^@\s]+$/.test(address) ? address.toLowerCase() : undefined;
}
