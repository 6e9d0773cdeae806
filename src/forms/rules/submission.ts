// Field validation of a form submission (docs/submission-rules.md "Fields").
// Pure: takes the parsed body, returns the clean submission or every field error; the route maps it to HTTP.
//
// The finer points of docs/submission-rules.md "Fields" and "Honeypot":
// - A value that is empty after trimming counts as absent ("Name is required" rather than "too short").
// - A field that is optional for the form but present is still checked (length, characters).
// - `name` and `service` are single-line values: no C0/C1 controls, DEL, U+2028 or U+2029. `message` may
//   hold \n, \r and \t (and U+2028/U+2029, which are text), no other controls. No field may hold a lone
//   UTF-16 surrogate (it cannot be encoded into a mail).
// - `service` must equal one entry of `services` exactly (after trimming), case included.
// - `name` and `message` are not read on newsletter forms, `service` only on contact forms: there they are
//   dropped without a check, whatever their type.
// - Honeypot: a trimmed non-empty string, or any other non-null value, is a hit.
import type { FormConfig } from '../../config/config.js';
import { canonicalEmailAddress, isEmailAddress } from '../../kit/email-address.js';
import { parseTickedLists } from '../../newsletter/lists.js';
import { languageTagOf } from '../../newsletter/attributes.js';
import type { StoredAttachment } from '../attachments/attachment-store.js';
import { fieldRulesOf, type FieldName, type ServiceRule, type TextLimits } from './submission-fields.js';

// Which fields a form reads and their limits live in submission-fields.ts, which GET /openapi.json reads too.
export { SERVICE_MAX_RUNES, type FieldName } from './submission-fields.js';

/** One entry of the `details` list of a `400 validation` answer; `message` never echoes the input. */
export interface FieldError {
  field: FieldName;
  message: string;
}

/** The clean, trimmed fields of an accepted submission; absent optional fields are left out. */
export interface Submission {
  name?: string;
  email: string;
  service?: string;
  message?: string;
  /** The list ids ticked on a newsletter form offering several (docs/newsletter.md "Lists"); left out when none. */
  lists?: string[];
  /** The language a newsletter form's field `lang` gave (docs/newsletter.md "Subscriber attributes"); left out when none. */
  lang?: string;
  /** The files that came with it (docs/attachments.md), once stored; left out when none. */
  attachments?: StoredAttachment[];
}

/** Outcome of {@link checkSubmission}. */
export type SubmissionCheck =
  | { ok: true; submission: Submission; honeypotHit: boolean }
  | { ok: false; details: FieldError[] };

type FieldValue = { kind: 'absent' } | { kind: 'not-text' } | { kind: 'text'; text: string };

/**
 * Validates a parsed body against a form: field validation first, then the honeypot (docs/submission-rules.md
 * "Honeypot").
 * Unknown fields are ignored; errors come one per field in the order name, email, service, message.
 */
export function checkSubmission(form: FormConfig, fields: Readonly<Record<string, unknown>>): SubmissionCheck {
  return createSubmissionCheck(form)(fields);
}

/**
 * {@link checkSubmission} for one form, with what depends only on the form (the rules and their messages)
 * worked out once: a service checks every submission of a form with the same function.
 */
export function createSubmissionCheck(form: FormConfig): (fields: Readonly<Record<string, unknown>>) => SubmissionCheck {
  const rules = fieldRulesOf(form);
  // A newsletter keeps and mails one spelling of each mailbox: `"bomb"@example.com` is `bomb@example.com`
  // (docs/newsletter.md "Duplicates").
  const emailOf = rules.email.canonical ? canonicalEmailAddress : (text: string) => (isEmailAddress(text) ? text : undefined);
  const nameRule = rules.name && textRule('name', 'Name', rules.name);
  const messageRule = rules.message && textRule('message', 'Message', rules.message);
  const serviceRule = rules.service;
  const offersLists = form.type === 'newsletter' && form.lists.length > 0;
  return (fields) => {
    const details: FieldError[] = [];
    const submission: Partial<Submission> = {};

    if (nameRule) {
      const name = checkText(nameRule, readField(fields, 'name'));
      if (typeof name === 'string') submission.name = name;
      else if (name) details.push(name);
    }

    const email = readField(fields, 'email');
    if (email.kind === 'absent') details.push({ field: 'email', message: 'Email is required' });
    else if (email.kind === 'not-text') details.push({ field: 'email', message: 'Email must be text' });
    else {
      const address = emailOf(email.text);
      if (address === undefined) details.push({ field: 'email', message: 'Email must be a valid email address' });
      else submission.email = address;
    }

    if (serviceRule) {
      const service = checkService(serviceRule, readField(fields, 'service'));
      if (typeof service === 'string') submission.service = service;
      else if (service) details.push(service);
    }

    if (messageRule) {
      const message = checkText(messageRule, readField(fields, 'message'));
      if (typeof message === 'string') submission.message = message;
      else if (message) details.push(message);
    }

    if (offersLists) {
      const ticked = parseTickedLists(fields.lists);
      if (ticked.length > 0) submission.lists = ticked;
    }
    if (form.type === 'newsletter') {
      const lang = languageTagOf(fields.lang);
      if (lang !== undefined) submission.lang = lang;
    }

    if (details.length > 0) return { ok: false, details };
    return { ok: true, submission: submission as Submission, honeypotHit: isHoneypotHit(fields, rules.honeypot) };
  };
}

/** Whether the trap field is filled: only bots see it (docs/submission-rules.md "Honeypot"). */
function isHoneypotHit(fields: Readonly<Record<string, unknown>>, honeypotField: string): boolean {
  const value = readField(fields, honeypotField);
  return value.kind !== 'absent';
}

function readField(fields: Readonly<Record<string, unknown>>, key: string): FieldValue {
  if (!Object.hasOwn(fields, key)) return { kind: 'absent' };
  const value = fields[key];
  if (value === null || value === undefined) return { kind: 'absent' };
  if (typeof value !== 'string') return { kind: 'not-text' };
  const text = value.trim();
  return text === '' ? { kind: 'absent' } : { kind: 'text', text };
}

/** A text field's limits with every message they can produce. */
interface TextRule extends TextLimits {
  field: FieldName;
  messages: { required: string; notText: string; unclean: string; tooShort: string; tooLong: string };
}

function textRule(field: FieldName, label: string, limits: TextLimits): TextRule {
  const what = limits.allowLineBreaks ? 'control characters' : 'control characters or line breaks';
  return {
    ...limits,
    field,
    messages: {
      required: `${label} is required`,
      notText: `${label} must be text`,
      unclean: `${label} must not contain ${what}`,
      tooShort: `${label} must be at least ${characters(limits.min)}`,
      tooLong: `${label} must be at most ${characters(limits.max)}`,
    },
  };
}

/** The clean text, an error, or undefined for an absent optional field. */
function checkText(rule: TextRule, value: FieldValue): string | FieldError | undefined {
  const { field, messages } = rule;
  if (value.kind === 'absent') return rule.required ? { field, message: messages.required } : undefined;
  if (value.kind === 'not-text') return { field, message: messages.notText };
  const scan = scanText(value.text, rule.allowLineBreaks);
  if (!scan.clean) return { field, message: messages.unclean };
  if (scan.runes < rule.min) return { field, message: messages.tooShort };
  if (scan.runes > rule.max) return { field, message: messages.tooLong };
  return value.text;
}

function checkService(rule: ServiceRule, value: FieldValue): string | FieldError | undefined {
  if (value.kind === 'absent') return undefined;
  if (value.kind === 'not-text') return { field: 'service', message: 'Service must be text' };
  const { choices, maxRunes } = rule;
  if (choices) {
    return choices.includes(value.text) ? value.text : { field: 'service', message: 'Service must be one of the offered choices' };
  }
  const scan = scanText(value.text, false);
  if (!scan.clean) return { field: 'service', message: 'Service must not contain control characters or line breaks' };
  if (scan.runes > maxRunes) {
    return { field: 'service', message: `Service must be at most ${characters(maxRunes)}` };
  }
  return value.text;
}

/**
 * Counts code points and checks characters in one pass. Forbidden everywhere: C0 controls, DEL, C1 controls
 * and lone surrogates; \t \n \r and U+2028/U+2029 only where line breaks are allowed.
 */
export function scanText(text: string, allowLineBreaks: boolean): { runes: number; clean: boolean } {
  let runes = 0;
  let clean = true;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    runes += 1;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
      else clean = false;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      clean = false;
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      if (!(allowLineBreaks && (code === 0x09 || code === 0x0a || code === 0x0d))) clean = false;
    } else if ((code === 0x2028 || code === 0x2029) && !allowLineBreaks) {
      clean = false;
    }
  }
  return { runes, clean };
}

/** "5,000 characters". The grouping is done by hand: toLocaleString goes through ICU, a few microseconds a call. */
function characters(count: number): string {
  return `${String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${count === 1 ? 'character' : 'characters'}`;
}
