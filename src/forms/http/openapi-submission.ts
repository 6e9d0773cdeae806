// A form's request body and its `400 validation` answer, as schemas for GET /openapi.json (docs/openapi.md), written
// from the field rules the validation checks submissions with (rules/submission-fields.ts) and from the form's spam
// checks: the fields it reads with their limits, `services` as an enum, the honeypot, and the `altcha` field of
// proof of work or the captcha provider's field when they are on.
import type { FormConfig } from '../../config/config.js';
import { z } from '../../http/openapi/openapi-zod.js';
import { FIELD_NAMES, fieldRulesOf, type FieldName, type TextLimits } from '../rules/submission-fields.js';
import { CAPTCHA_PROVIDERS } from '../spam/captcha.js';
import { ALTCHA_FIELD } from '../spam/spam-check.js';

/** The body of a submission to `form`; `proofOfWork` says whether its proof of work is on. */
export function submissionSchema(form: FormConfig, proofOfWork: boolean) {
  const rules = fieldRulesOf(form);
  const fields: Record<string, z.ZodType> = {};
  if (rules.name) fields.name = textField(rules.name, 'The sender\'s name, on one line');
  fields.email = z.email().openapi({
    description: rules.email.canonical
      ? 'The address to sign up: an RFC 5322 address (docs/submission-rules.md "Email addresses"), kept in one spelling per mailbox.'
      : 'The sender\'s address: an RFC 5322 address (docs/submission-rules.md "Email addresses"); replies go to it.',
  });
  if (rules.service) {
    const { choices, maxRunes } = rules.service;
    fields.service = (
      choices
        ? z.enum(choices as [string, ...string[]]).openapi({ description: 'One of the offered services, exactly.' })
        : z.string().max(maxRunes).openapi({ description: `Free text on one line, at most ${maxRunes} characters.` })
    ).optional();
  }
  if (rules.message) fields.message = textField(rules.message, 'The message; line breaks are kept');
  fields[rules.honeypot] = z
    .string()
    .max(0)
    .optional()
    .openapi({ description: 'The honeypot: leave it empty (hidden from people). A filled one is answered as a success and nothing is delivered.' });
  const { spam } = form;
  if (proofOfWork) {
    fields[ALTCHA_FIELD] = z.string().min(1).openapi({
      description: `The ALTCHA widget's solution of a challenge from \`GET ${form.path}/challenge\`, sent at least ${spam.min_seconds} seconds after it was issued and within ${spam.challenge_expires_seconds} seconds (docs/spam.md "Proof of work"). Without it the submission is taken for spam.`,
    });
  }
  if (spam.captcha) {
    fields[CAPTCHA_PROVIDERS[spam.captcha.provider].field] = z.string().min(1).openapi({
      description: `The token of the ${spam.captcha.provider} widget (docs/spam.md "A captcha"). Without a passed one the submission is taken for spam.`,
    });
  }
  return z.looseObject(fields).openapi({
    description: `A submission to the ${form.type} form at ${form.path}. Values are trimmed before they are checked, lengths count characters (code points), and a value that is empty once trimmed counts as absent; other fields are ignored.`,
  });
}

/** The fields of `form` a `400 validation` answer can name, in the order the answer lists them. */
export function checkedFields(form: FormConfig): FieldName[] {
  const rules = fieldRulesOf(form);
  return FIELD_NAMES.filter((field) => rules[field] !== undefined);
}

/** `400 validation`: one detail per invalid field of `form`. */
export function validationSchema(form: FormConfig) {
  const [first, ...rest] = checkedFields(form);
  return z.strictObject({
    error: z.literal('validation'),
    details: z
      .array(z.strictObject({ field: z.enum([first!, ...rest]), message: z.string().openapi({ description: 'A fixed text that never repeats the input.' }) }))
      .min(1),
  });
}

/** A free-text field: required or not, its length bounds; an empty text counts as absent, so a required one needs one character. */
function textField(limits: TextLimits, what: string): z.ZodType {
  const min = limits.required ? Math.max(1, limits.min) : limits.min;
  const text = z
    .string()
    .min(min)
    .max(limits.max)
    .openapi({
      description: `${what}. ${limits.allowLineBreaks ? 'No control characters but line breaks and tabs.' : 'No control characters or line breaks.'}${limits.required ? '' : ' Optional.'}`,
    });
  return limits.required ? text : text.optional();
}
