// What may be logged of a failure: a short code, never the error's message. SMTP servers quote the refused
// address in their replies, URLs carry bot tokens, and a thrown message may hold any input.

/**
 * A code that is safe to log: a failure kind set by an adapter (`reason`, e.g. Telegram's `not_ok`), an SMTP
 * reply code (`smtp_550`), a Node or library error code (`ECONNREFUSED`, `ERR_INVALID_CHAR`), else the error's
 * class name (`TypeError`), else `error`.
 */
export function safeReason(error: unknown): string {
  const details = (error ?? {}) as { reason?: unknown; responseCode?: unknown; code?: unknown; name?: unknown };
  if (typeof details.reason === 'string' && /^[a-z0-9_]+$/.test(details.reason)) return details.reason;
  if (typeof details.responseCode === 'number') return `smtp_${details.responseCode}`;
  if (typeof details.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(details.code)) return details.code;
  if (error instanceof Error && /^[A-Z][A-Za-z]+Error$/.test(error.name)) return error.name;
  return 'error';
}

/** Where a failure happened (the first stack frame: function, file and line), without its message. */
export function failureSite(error: unknown): string | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  const frame = stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
  return frame?.trim().slice(3);
}
