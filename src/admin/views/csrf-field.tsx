// The hidden field every admin POST form carries (docs/admin.md "Security"): without it, the POST is refused.
import type { AdminSession } from '../sessions.js';

/** The name of the field that carries the session's CSRF token. */
export const CSRF_FIELD = 'csrf_token';

export function CsrfField({ session }: { session: AdminSession }) {
  return <input type="hidden" name={CSRF_FIELD} value={session.csrfToken} />;
}
