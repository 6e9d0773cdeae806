// The headers of every admin answer (docs/admin.md "Security"): nothing is cached (but the versioned scripts and
// stylesheet, whose address changes with their content: admin.tsx sets their Cache-Control), nothing
// frames the pages, no script or style runs unless it is a file of /admin itself, forms post only to /admin, and
// no search engine lists a page (a sign-in page in search results only invites guessing).

export const ADMIN_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-robots-tag': 'noindex',
});

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
