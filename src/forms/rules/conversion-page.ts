// The page an accepted submission was sent from, counted as a conversion of its form (docs/analytics.md
// "Conversions"): the `_page` field the embed snippets fill with location.pathname, else the path of the Referer
// (a cross-origin post sends only the origin by default, so its path is "/"). Pure; `_page` is never kept.

/** The longest page path counted. */
const MAX_PAGE_LENGTH = 512;

/** The page's path, or undefined when neither names one. */
export function conversionPageOf(pageField: unknown, referer: string | undefined): string | undefined {
  if (typeof pageField === 'string' && isPagePath(pageField)) return pageField.split(/[?#]/, 1)[0];
  if (referer === undefined || !URL.canParse(referer)) return undefined;
  const { pathname } = new URL(referer);
  return isPagePath(pathname) ? pathname : undefined;
}

function isPagePath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && value.length <= MAX_PAGE_LENGTH && !/[\u0000-\u001f\u007f]/.test(value);
}
