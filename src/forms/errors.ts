// The forms service's error catalogue (forms-service.md "Errors"): every code with its status and the
// message users see. Messages are fixed text, so no answer ever echoes what a client sent.

export const FORM_ERRORS = {
  invalid_body: { status: 400, message: 'The request body could not be read.' },
  origin_not_allowed: { status: 403, message: undefined },
  body_too_large: { status: 413, message: 'The request body is too large.' },
  rate_limited: { status: 429, message: 'Too many submissions from your address. Please try again later.' },
  send_failed: { status: 500, message: 'Your submission could not be delivered. Please try again later.' },
  storage_failed: { status: 500, message: 'Your submission could not be saved. Please try again later.' },
} as const;

export type FormErrorCode = keyof typeof FORM_ERRORS;
