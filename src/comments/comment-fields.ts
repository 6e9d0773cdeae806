// The fields of a comment POST (docs/comments.md "Sending a comment"), checked before anything else: pure, it
// returns the clean comment or one error per field, in the order name, email, url, text, parent.
import { isEmailAddress } from '../kit/email-address.js';

export const NAME_MAX = 100;
export const TEXT_MAX = 10_000;
export const URL_MAX = 2000;
export const EMAIL_MAX = 254;
/** The hidden field a person leaves empty and a form-filling bot fills. */
export const COMMENT_HONEYPOT_FIELD = 'website';

/** One entry of the `details` of a `400 validation` answer; `message` never echoes the input. */
export interface FieldError {
  field: 'name' | 'email' | 'url' | 'text' | 'parent';
  message: string;
}

/** A comment as the visitor sent it, checked. */
export interface CommentFields {
  name: string;
  email: string | null;
  url: string | null;
  text: string;
  parent: string | null;
}

export type CommentFieldsCheck = { ok: true; fields: CommentFields; honeypotHit: boolean } | { ok: false; details: FieldError[] };

/** Characters as a person counts them (code points), not UTF-16 units. */
function lengthOf(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A field's text: a string, trimmed; `undefined` when absent or empty; `null` when it is not text. */
function textOf(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Checks the parsed body of a comment POST. */
export function checkCommentFields(body: Readonly<Record<string, unknown>>): CommentFieldsCheck {
  const details: FieldError[] = [];
  const name = textOf(body.name);
  if (name === undefined || name === null) details.push({ field: 'name', message: 'A name is required.' });
  else if (lengthOf(name) > NAME_MAX) details.push({ field: 'name', message: `The name must be at most ${NAME_MAX} characters.` });

  const email = textOf(body.email);
  if (email === null || (email !== undefined && (email.length > EMAIL_MAX || !isEmailAddress(email)))) details.push({ field: 'email', message: 'The email address is not valid.' });

  const url = textOf(body.url);
  if (url === null || (url !== undefined && !isWebAddress(url))) details.push({ field: 'url', message: 'The web address must be an http or https URL.' });

  const text = typeof body.text === 'string' ? body.text.trim() : undefined;
  if (text === undefined || text === '') details.push({ field: 'text', message: 'The comment must not be empty.' });
  else if (lengthOf(text) > TEXT_MAX) details.push({ field: 'text', message: `The comment must be at most ${TEXT_MAX} characters.` });

  const parent = textOf(body.parent);
  if (parent === null) details.push({ field: 'parent', message: 'The comment answered is not valid.' });

  if (details.length > 0) return { ok: false, details };
  const honeypot = body[COMMENT_HONEYPOT_FIELD];
  return {
    ok: true,
    fields: { name: name!, email: email ?? null, url: url ?? null, text: text!, parent: parent ?? null },
    honeypotHit: typeof honeypot === 'string' ? honeypot.trim() !== '' : honeypot !== undefined && honeypot !== null,
  };
}

/** An absolute http or https URL with a host, as a commenter's web address must be. */
function isWebAddress(value: string): boolean {
  if (value.length > URL_MAX || !/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
