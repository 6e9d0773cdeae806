// CORS decisions for form endpoints (forms-service.md "OPTIONS <form_path>" and "CORS rules for POST").
// Pure helpers: the routes read the Origin header and apply the answer.

/**
 * Whether a request's Origin may use a form: an absent header is allowed (a non-browser client, rule 1);
 * a present one must equal one of the configured origins exactly (rule 2; no wildcard, no case folding,
 * no trailing-slash leniency, since browsers send the serialized origin byte for byte).
 */
export function isOriginAllowed(origin: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  return allowedOrigins.includes(origin);
}

/** The headers an allowed origin gets on both the preflight and the POST answer (rule 3). */
export function createCorsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type',
    Vary: 'Origin',
  };
}
