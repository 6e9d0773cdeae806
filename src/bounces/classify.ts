// What a mail that came back means for the address it was sent to (docs/bounces.md "Bounces: how a failure is
// classified"): hard (the mailbox or its domain does not exist), soft (any other failure), complaint (the
// recipient reported it) or none (an automatic reply, a delivery report, ordinary mail). Every intake of
// bounces (the IMAP mailbox, `postbox bounces classify`) reads a raw mail through this one function.

import type { BounceKind } from './bounce-report.js';
import { addressesIn, isSystemAddress, reportAddressees } from './addresses.js';
import { isAutoReplied, isVacationReply } from './auto-reply.js';
import { parseDeliveryStatus, scanStatusFields, type RecipientStatus } from './delivery-status.js';
import { failureKind, namesReason, refusedAt, replyCodesIn, statusCodesIn, type FailureKind } from './failure-rules.js';
import { complaintIn } from './feedback.js';
import { headerOf, parseMessage, walkParts, type MimePart } from './mime.js';
import { originalHeaders, splitReport } from './returned-message.js';
import { sesNotificationIn } from './ses-notification.js';

export interface BounceVerdict {
  kind: BounceKind;
  /** The failed recipient (lower-cased address), when the message names one. */
  recipient?: string;
  /** The enhanced status code (e.g. "5.1.1") when known. */
  status?: string;
  /** A short reason for logs and /admin (the diagnostic text, at most ~200 chars). */
  reason?: string;
  /** Every address the bounce itself was addressed to (To, Delivered-To, X-Original-To, Envelope-To, Return-Path of the report...), lower-cased: where a VERP tag like bounces+TAG@example.com is found. */
  sentTo: string[];
  /** Headers of the returned original message when included (Message-ID, and any X-Postbox-* headers), lower-cased names. */
  original?: Record<string, string>;
}

/** DSN actions that report a success, not a failure (RFC 3464 2.3.3; "deliverable" answers a verify request). */
const SUCCESS_ACTIONS = new Set(['delivered', 'relayed', 'expanded', 'deliverable']);

/** Subjects mail systems give their failure notices. */
const BOUNCE_SUBJECT =
  /undeliver|undelivered|delivery (?:status notification|failure|failed|has failed|problem|notification|report)|failure notice|returned mail|mail delivery (?:failed|failure|system)|could not be delivered|not (?:be )?delivered|non[- ]?delivery|nondeliverable|returned to sender|mail failure|unzustellbar|nicht zustellbar|non remis|non distribu|[ée]chec de (?:la )?(?:remise|distribution)|no se (?:pudo|ha podido) entregar|mancata consegna|fehlgeschlagen|rejected|bounced?\b|error sending|delivery delayed|warning: could not send|non recapitabile|(?:n[ãa]o entregue|falha na entrega)|onbestelbaar|niet (?:bezorgd|afgeleverd)|недоставлен|не доставлен|退信|未送达|投递失败|无法投递|エラー|不達|配信(?:不能|失敗)|送信(?:不能|失敗)|(?:配信|送信)できません|配信に失敗|返送/i;
/** Senders of failure notices: the mail system's own mailboxes and names. */
const SYSTEM_SENDER = /mailer[-_]?daemon|post_?master|sysadmin|mail deliver|delivery subsystem|mail administrator|mail-?daemon|mail system|mdaemon|administrator/i;
/**
 * The set phrases with which mail systems open a failure notice (Exim, Postfix, Sendmail, qmail, Exchange, Gmail,
 * Lotus Notes and others): enough by themselves, whoever the notice claims to come from and whatever its subject.
 */
const NOTICE_SIGNATURE =
  /created automatically by mail delivery software|i'?m sorry to have to inform you that your message could not|the following addresses had permanent fatal errors|this is the qmail-send program|delivery to the following recipients? failed permanently|your message did not reach some or all of the intended recipients|delivery has failed to these recipients|this is an automatically generated delivery status notification|unable to deliver (?:your )?message to the following address|transcript of (?:session|the attempts to send the message) follows|the following addresses had delivery problems|did not reach the following recipient|failure reasons\s*-{3}/i;
/** A notice that only warns of a delay. */
const DELAY = /\bdelay(?:ed)?\b|will (?:continue to )?(?:be )?retr(?:y|ied)|will retry|warning message only|not yet been delivered|delivery incomplete|still (?:being )?(?:trying|retried)/i;

/** Reads one raw mail (bytes as received, or text) and says what it means for the address it names. */
export async function classifyBounce(raw: Buffer | string): Promise<BounceVerdict> {
  const message = parseMessage(raw);
  const { notice, returned } = splitReport(message);
  const original = originalHeaders(returned);
  const base = { sentTo: reportAddressees(message), ...(original ? { original } : {}) };

  const complaint = complaintIn(message);
  if (complaint) return { kind: 'complaint', ...recipientOf(complaint.recipient), reason: `feedback report: ${complaint.reason}`, ...base };

  const ses = sesNotificationIn(notice);
  if (ses?.type === 'complaint') return { kind: 'complaint', ...recipientOf(ses.recipient), reason: `feedback report: ${ses.reason}`, ...base };
  if (ses?.type === 'delivery') return { kind: 'none', ...recipientOf(ses.recipient), reason: 'delivered', ...base };
  if (ses?.type === 'bounce') {
    const failure: RecipientStatus = { recipient: ses.recipient, action: ses.permanent ? 'failed' : 'delayed', status: ses.status, diagnostic: ses.diagnostic };
    return { ...judge([failure], '', message, undefined), ...base };
  }

  const bounceLike = looksLikeBounce(message, notice);
  let recipients = walkParts(message, (part) => !part.type.startsWith('message/'))
    .filter((part) => part.type === 'message/delivery-status' || part.type === 'message/global-delivery-status')
    .flatMap((part) => parseDeliveryStatus(part.text));
  if (recipients.length === 0 && bounceLike) recipients = scanStatusFields(notice);
  if (recipients.length > 0) {
    const failed = recipients.filter((recipient) => !SUCCESS_ACTIONS.has(recipient.action ?? 'failed'));
    if (failed.length === 0) return { kind: 'none', ...recipientOf(recipients[0]!.recipient), status: recipients[0]!.status, reason: 'delivered', ...base };
    return { ...judge(failed, notice, message, returned), ...base };
  }

  if (isVacationReply(message) && !isFailureNotice(message, notice)) return { kind: 'none', reason: 'automatic reply', ...base };
  if (bounceLike) {
    const delayed = DELAY.test(`${headerOf(message, 'subject') ?? ''}\n${notice}`);
    const recipient = failedRecipient(message, notice, returned);
    return { ...judge([{ action: delayed ? 'delayed' : 'failed', recipient }], notice, message, returned), ...base };
  }
  if (isAutoReplied(message)) return { kind: 'none', reason: 'automatic reply', ...base };
  return { kind: 'none', ...base };
}

/** The verdict on the failed recipients of one report: hard only when every one of them failed hard. */
function judge(failed: RecipientStatus[], notice: string, message: MimePart, returned: MimePart | undefined): Omit<BounceVerdict, 'sentTo' | 'original'> {
  const subject = headerOf(message, 'subject') ?? '';
  const kinds: FailureKind[] = [];
  let first: { recipient?: string; status?: string; reason?: string } | undefined;
  for (const failure of failed) {
    // The Diagnostic-Code is what the receiving system said; without one, the notice's words (and the subject
    // some systems put the reason in) are all there is: what it says about this recipient, unless that names no
    // reason where the part around its first reply code does ("mail.local: unknown user" above "554 <a@b>...
    // Service unavailable").
    const about = noticeAbout(notice, failure.recipient);
    const around = errorOf(notice);
    const said = failure.diagnostic ?? (about !== undefined && (namesReason(withoutAddresses(about)) || !namesReason(withoutAddresses(around))) ? about : around);
    const words = withoutAddresses(said);
    const text = failure.diagnostic !== undefined || namesReason(words) ? words : `${words} ${subject}`;
    const statuses = [...new Set([failure.status, ...statusCodesIn(text)].filter((status): status is string => status !== undefined))];
    // The command the refusal answered: from the words about this recipient, else from the notice's transcript.
    const command = refusedAt(`${said}\n${noticeAbout(notice, failure.recipient) ?? ''}`) ?? refusedAt(notice);
    kinds.push(failureKind({ statuses, replies: replyCodesIn(text), text, delayed: failure.action === 'delayed', command }));
    first ??= { recipient: failure.recipient, status: mostSpecific(statuses), reason: reasonOf(said, failure.diagnostic === undefined) };
  }
  const kind: BounceKind = kinds.every((kind) => kind === 'hard') ? 'hard' : 'soft';
  const recipient = first?.recipient ?? failedRecipient(message, notice, returned);
  return { kind, ...recipientOf(recipient), ...(first?.status ? { status: first.status } : {}), ...(first?.reason ? { reason: first.reason } : {}) };
}

/** Whether `message` is a failure notice of a mail system rather than a person's mail. */
function looksLikeBounce(message: MimePart, notice: string): boolean {
  if (headerOf(message, 'x-failed-recipients') !== undefined) return true;
  if (message.type === 'multipart/report' && /delivery-status/i.test(message.params['report-type'] ?? '')) return true;
  if (SYSTEM_SENDER.test(headerOf(message, 'from') ?? '') || NOTICE_SIGNATURE.test(notice)) return true;
  if (!BOUNCE_SUBJECT.test(headerOf(message, 'subject') ?? '')) return false;
  const returnPath = headerOf(message, 'return-path');
  return returnPath === '<>' || isAutoReplied(message) || /auto-generated/i.test(headerOf(message, 'auto-submitted') ?? '') || /could(?: not|n'?t) be delivered|was(?: not|n'?t) delivered|undeliverable|permanent|delivery errors|unable to deliver|rejected recipient|送信できませんでした|配信できませんでした/i.test(notice);
}

/**
 * Whether `message` says by more than an automatic-reply mark that it is a failure notice: X-Failed-Recipients, a set
 * phrase of a mail system, or a mail system's sender with a failure subject. Such a notice stays a notice when its
 * subject quotes an out-of-office word ("Undeliverable: Absence") or a mail system marks it as an automatic reply.
 */
function isFailureNotice(message: MimePart, notice: string): boolean {
  if (headerOf(message, 'x-failed-recipients') !== undefined || NOTICE_SIGNATURE.test(notice)) return true;
  return SYSTEM_SENDER.test(headerOf(message, 'from') ?? '') && BOUNCE_SUBJECT.test(headerOf(message, 'subject') ?? '');
}

/** A notice's own words naming the address it failed to deliver to ("an error delivering your mail to <a@b>"). */
const DELIVERING_TO = /\bdeliver(?:ing|y)?\b[^<\n]{0,40}?\bto:?\s*<([^<>\s@]{1,64}@[^<>\s]{1,255})>/i;

/** A line on which a notice names the failed address as such ("Recipient address: a@b", "Recipient: <a@b>", "Addressed To: a@b"). */
const RECIPIENT_LINE = /^[ \t]*(?:recipient(?: address)?|original address|addressed to)[ \t]*:[ \t]*<?([^<>\s@]{1,64}@[^<>\s]{1,255}?)>?[ \t]*$/im;
/** A Message-ID a notice quotes from the returned message: an address in form only. */
const MESSAGE_ID_LINE = /^[ \t]*message-id[ \t]*:[^\n]*$/gim;

/** The recipient a notice without a delivery-status part names: X-Failed-Recipients, else the first address it gives that is not a mailbox of the mail system, the report's own or the sender's. */
function failedRecipient(message: MimePart, notice: string, returned: MimePart | undefined): string | undefined {
  const failedHeader = addressesIn(headerOf(message, 'x-failed-recipients') ?? '')[0];
  if (failedHeader) return failedHeader;
  const named = DELIVERING_TO.exec(notice)?.[1] ?? RECIPIENT_LINE.exec(notice)?.[1];
  if (named) return named.toLowerCase();
  const own = [reportAddressees(message), addressesIn(headerOf(message, 'from') ?? ''), addressesIn(returned ? (headerOf(returned, 'from') ?? '') : '')];
  const exclude = new Set(own.flat());
  return addressesIn(notice.replace(MESSAGE_ID_LINE, '')).find((address) => !exclude.has(address) && !isSystemAddress(address));
}

/**
 * What a notice says about one recipient when it names the address and gives words after it
 * ("neko@example.org: No MX found for domain"), or on the indented lines under an address that stands alone
 * (Exim: "  neko@example.org\n    an MX or SRV record indicated no SMTP service"): that line and the lines
 * under it, up to a blank line or a reply about something else.
 */
function noticeAbout(notice: string, recipient: string | undefined): string | undefined {
  if (!recipient) return undefined;
  const lines = notice.split('\n');
  const needle = recipient.toLowerCase();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const at = line.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    const before = line.slice(0, at);
    const rest = line.slice(at + needle.length).replace(/^[>\s:"]+/, '');
    // The lines under it, up to a blank line or a reply about something else at the same depth (a transcript's
    // next host: "421 example.org (smtp)... Deferred"); a reply indented under the address is about it.
    const indent = indentOf(line);
    // At most UNDER_LINES of them: a block that long is no mail system's words about one address.
    const following = lines.slice(index + 1, index + 1 + UNDER_LINES);
    const end = following.findIndex(
      (next) => next.trim() === '' || (/^\s*(?:<<<\s*)?[45]\d\d\b/.test(next) && indentOf(next) <= indent && !next.toLowerCase().includes(needle)),
    );
    const under = end < 0 ? following : following.slice(0, end);
    // A reply that quotes the address after its code ("550 5.6.0 <a@b>: Recipient address rejected") keeps the code.
    if (TWO_WORDS.test(withoutAddresses(rest))) return [CODE.test(before) ? line.trim() : rest, ...under].join('\n');
    const alone = before.replace(/[\s<"]+/g, '') === '' && rest.trim() === '';
    if (alone && under.length > 0 && under.every((next) => indentOf(next) > indent)) return under.join('\n');
  }
  return undefined;
}

/** How many lines under an address are read as what the notice says about it. */
const UNDER_LINES = 40;

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length;
}

/** Two words in a row: text that says something (the last two letters of one word, the first two of the next). */
const TWO_WORDS = /[a-z]{2}\W+[a-z]{2}/i;

/** A reply or status code where a mail system quotes what the receiving system said. */
const CODE = /(?:^|\s)[45]\d\d[ -]|(?<![\d.])[45]\.\d{1,3}\.\d{1,3}/;

/** The part of a notice that holds the error: from a little before the first line with a code on, else all of it. */
function errorOf(notice: string): string {
  const lines = notice.split('\n');
  const index = lines.findIndex((line) => CODE.test(line));
  return index < 0 ? notice : lines.slice(Math.max(0, index - 3)).join('\n');
}

/**
 * The diagnostic without the words that mislead: addresses become "<address>" (a local part may read
 * "does-not-exist") and links keep only their host (a path may read "#userunknown"; a host such as a block
 * list's still says who refused).
 */
function withoutAddresses(text: string): string {
  return text
    .replace(/\bhttps?:\/\/([^\s/?#]+)\S*/gi, ' $1 ')
    .replace(/[^\s<>"(),;:[\]]{1,64}@[^\s<>"(),;:[\]]{1,255}/g, '<address>')
    .replace(/\s+/g, ' ');
}

/** The most telling status of a list: a specific one before a general x.0.0. */
function mostSpecific(statuses: readonly string[]): string | undefined {
  return statuses.find((status) => !/\.0\.0$/.test(status)) ?? statuses[0];
}

/**
 * A short reason for logs, at most 200 characters: a Diagnostic-Code as it is; from a notice, the paragraph
 * that quotes a code, from the code on (else the notice's first paragraph).
 */
function reasonOf(said: string, fromNotice: boolean): string | undefined {
  let text = said;
  if (fromNotice) {
    const paragraphs = said.split(/\n[ \t]*\n/).map((paragraph) => paragraph.trim()).filter(Boolean);
    const quoting = paragraphs.find((paragraph) => CODE.test(paragraph));
    // From the code on when words follow it ("550 5.1.1 User unknown"); the whole paragraph when the code
    // closes it ("Sorry, I couldn't find a mail exchanger. (#5.4.4)").
    const tail = quoting?.slice(Math.max(0, quoting.search(CODE)));
    text = tail && TWO_WORDS.test(tail) ? tail : (quoting ?? paragraphs[0] ?? '');
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function recipientOf(recipient: string | undefined): { recipient?: string } {
  return recipient ? { recipient: recipient.toLowerCase() } : {};
}
