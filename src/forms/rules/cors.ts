// CORS decisions for form endpoints (docs/forms-api.md "POST <path>" and "OPTIONS <path>"; docs/embedding.md
// "Which origins go in allowed_origins").
// Pure helpers: the routes read the Origin header and apply the answer.

/**
 * Whether a request's Origin may use a form: an absent header is allowed (a non-browser client); a present
 * one must equal one of the configured origins exactly (no wildcard, no case folding, no trailing-slash
 * leniency, since browsers send the serialized origin byte for byte).
 */
export function isOriginAllowed(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  return allowedOrigins.includes(origin);
}

/**
 * The headers an allowed origin gets on both the preflight and the POST answer, errors included, names in
 * lower case as the submit answers carry all their headers.
 */
export function createCorsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type',
    vary: 'Origin',
  };
}
