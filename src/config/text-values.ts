// Free-text keys that reach a header, a URL or a comparison (docs/configuration.md): what each may hold so
// that the value works where it goes.
import { z } from 'zod';

/**
 * A name on one line: site.title names the site in receipt subjects, where a line break would be flattened
 * (src/kit/header-value.ts) and a blank title would leave the subject without one.
 */
export const oneLineText = z
  .string()
  .refine((value) => value.trim() !== '', 'must not be blank')
  .refine((value) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value), 'must be one line, without control characters');

/** metrics_token: compared with the token of an Authorization header, which is printable ASCII without spaces. */
export const headerToken = z
  .string()
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (clients send it in the Authorization header)');

/** telegram.bot_token: part of the request path `<api_url>/bot<token>/sendMessage`, so only path characters. */
export const urlPathToken = z
  .string()
  .regex(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/, 'must be a bot token such as "123456:ABC-DEF" (no "/", "?", "#", "%" or spaces)');

/** A `services` entry: submitted values are trimmed before they are compared, so a padded entry never matches. */
export const serviceName = z
  .string()
  .min(1)
  .refine((value) => value === value.trim(), 'must not begin or end with white space (submitted values are trimmed)');

/** The fields a form reads (src/forms/rules/submission.ts); a honeypot named like one would trap every sender. */
const FORM_FIELDS = ['name', 'email', 'service', 'message'];

/** honeypot_field: the name of a field only bots fill in. */
export const honeypotField = z
  .string()
  .min(1)
  .refine(
    (value) => !FORM_FIELDS.includes(value),
    'must not be a field the form reads (name, email, service, message): every submission would be taken for a bot',
  );
