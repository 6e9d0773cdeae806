// Whether a request comes from another site (contract section 6): browsers say so in Sec-Fetch-Site (Fetch
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
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  return host === '' || host.toLowerCase() !== (headers.host ?? '').toLowerCase();
}
