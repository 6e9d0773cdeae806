// Whether a request comes from another site (docs/admin.md "Security"): browsers say so in Sec-Fetch-Site (Fetch
// Metadata) and Origin. A state-changing request with either pointing elsewhere is refused, whatever it carries.
import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when Sec-Fetch-Site is anything but `same-origin` or `none` (typed by the person), or when Origin is
 * present and its host is not the Host the request was sent to (`null` included). Without either header (curl,
 * old browsers) the CSRF token alone decides.
 */
export function isFromAnotherSite(headers: IncomingHttpHeaders): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    const from = new URL(origin);
    // The Host header read with the Origin's scheme, so that a default port written out or left off compares equal.
    const to = new URL(`${from.protocol}//${headers.host ?? ''}`);
    return from.host === '' || from.host !== to.host;
  } catch {
    return true;
  }
}
