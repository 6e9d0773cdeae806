// Which fields a form reads and the limits each is checked against (docs/submission-rules.md "Fields"), worked out
// from the form's configuration in one place: the validation (submission.ts) checks submissions with them, and the
// form's request body in GET /openapi.json (docs/openapi.md) is written from them, so that the two cannot differ.
import type { FormConfig } from '../../config/config.js';

/** The fields a form can read, in the order a `400 validation` answer lists their errors. */
export const FIELD_NAMES = ['name', 'email', 'service', 'message'] as const;

export type FieldName = (typeof FIELD_NAMES)[number];

/** Longest free-text `service` when the form has no `services` list (docs/submission-rules.md "Fields"). */
export const SERVICE_MAX_RUNES = 100;

/** The limits of a free-text field, in code points of the trimmed text. */
export interface TextLimits {
  required: boolean;
  min: number;
  max: number;
  /** `message` may hold line breaks and tabs; `name` is one line. */
  allowLineBreaks: boolean;
}

export interface ServiceRule {
  /** The form's `services`: the value must be one of them exactly; without a list, free text. */
  choices: readonly string[] | undefined;
  /** Longest free text, when there are no choices. */
  maxRunes: number;
}

/** The fields of one form; a field left undefined is not read there: it is dropped without a check. */
export interface FieldRules {
  name: TextLimits | undefined;
  email: {
    /** Newsletter forms keep one spelling of each mailbox (docs/newsletter.md "Duplicates"). */
    canonical: boolean;
  };
  service: ServiceRule | undefined;
  message: TextLimits | undefined;
  /** The trap field only bots fill in (docs/submission-rules.md "Honeypot"). */
  honeypot: string;
}

/** The field rules of `form`: `name` and `message` are not read on newsletter forms, `service` only on contact forms. */
export function fieldRulesOf(form: FormConfig): FieldRules {
  const readsNameAndMessage = form.type !== 'newsletter';
  return {
    name: readsNameAndMessage ? { required: form.require_name, min: form.name_min, max: form.name_max, allowLineBreaks: false } : undefined,
    email: { canonical: form.type === 'newsletter' },
    service: form.type === 'contact' ? { choices: form.services, maxRunes: SERVICE_MAX_RUNES } : undefined,
    message: readsNameAndMessage ? { required: form.require_message, min: form.message_min, max: form.message_max, allowLineBreaks: true } : undefined,
    honeypot: form.honeypot_field,
  };
}
