// One beacon of /a.js (docs/analytics.md "What is counted"): `{"path","referrer","width"}` read into a page view,
// or refused. Pure: the referrer is kept as its host alone, and not at all when it is the site itself.

/** A page view as it is counted. */
export interface PageView {
  /** The page's path, without query or fragment. */
  path: string;
  /** The host of the page the visitor came from on another site, or '' (direct, or from the site itself). */
  referrer: string;
  width: WidthClass;
}

/** The screen width as a class: the exact width would help to tell visitors apart. */
export type WidthClass = 'mobile' | 'tablet' | 'desktop' | 'unknown';

/** The longest path kept; a longer one is not a page of a blog. */
export const MAX_PATH_LENGTH = 512;

/** `body` (the beacon's JSON) as a page view of the site on `siteHost`, or undefined when it is not one. */
export function readPageView(body: string, siteHost: string): PageView | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { path, referrer, width } = value as Record<string, unknown>;
  const cleanPath = pagePathOf(path);
  if (cleanPath === undefined) return undefined;
  return { path: cleanPath, referrer: referrerHostOf(referrer, siteHost), width: widthClassOf(width) };
}

/** A path such as `location.pathname` gives, without query or fragment; undefined when it is none. */
export function pagePathOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return undefined;
  const path = value.split(/[?#]/, 1)[0]!;
  if (path.length > MAX_PATH_LENGTH || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
  return path;
}

/** The host of an http(s) referrer on another site than `siteHost`; '' otherwise. */
export function referrerHostOf(value: unknown, siteHost: string): string {
  if (typeof value !== 'string' || value === '' || !URL.canParse(value)) return '';
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  const host = url.hostname.replace(/^www\./, '');
  return host === siteHost.replace(/^www\./, '') ? '' : host;
}

function widthClassOf(value: unknown): WidthClass {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 'unknown';
  return value < 768 ? 'mobile' : value < 1200 ? 'tablet' : 'desktop';
}
