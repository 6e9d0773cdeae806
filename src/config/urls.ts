// The URLs of the configuration, loaded as their WHATWG URL serialisation (docs/configuration.md "URLs"):
// ASCII only, with an internationalised host in punycode and the rest percent-encoded, so that each can stand
// in a Location header, a mail or a feed as it is, and an origin compares byte for byte with the Origin
// header a browser sends.
import { z } from 'zod';

const HTTP_URL_MESSAGE = 'must be an absolute http(s) URL';

/** The URL `value` names when it is an absolute http or https URL. */
function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** An absolute http(s) URL as its serialisation: `https://example.com/спасибо` loads as `.../%D1%81...`. */
export const httpUrl = z.string().transform((value, context) => {
  const url = parseHttpUrl(value);
  if (url) return url.href;
  context.addIssue({ code: 'custom', message: HTTP_URL_MESSAGE });
  return z.NEVER;
});

/**
 * A URL that paths are appended to (telegram.api_url): a query or fragment would end up in front of the path,
 * and a user name or password would be in every link (fetch refuses such URLs outright).
 */
export const appendableUrl = z.string().transform((value, context) => {
  const url = parseHttpUrl(value);
  const problem = !url
    ? HTTP_URL_MESSAGE
    : url.href.includes('?') || url.href.includes('#')
      ? 'must not have a query or a fragment (paths are appended to it)'
      : url.username !== '' || url.password !== ''
        ? 'must not contain a user name or password'
        : undefined;
  if (problem === undefined) return (url as URL).href;
  context.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});

/** An appendable URL without its trailing slashes (server.public_url, site.base_url): `<base>/path` reads well. */
export const baseUrl = appendableUrl.transform((href) => href.replace(/\/+$/, ''));

const ORIGIN_MESSAGE =
  'must be an exact origin such as "https://example.com" (no path, no trailing slash; "*" is not supported)';

/** Scheme, "://", then a host and port alone: no path, slash, query, fragment, user name or white space. */
const ORIGIN_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\@\s\u0000-\u001f\u007f]+$/;

/**
 * An origin as a browser sends it in the Origin header (RFC 6454 section 6.1), for allowed_origins: a Unicode
 * host is stored in punycode (`https://bücher.example` as `https://xn--bcher-kva.example`), a default port
 * and upper case are dropped.
 */
export const origin = z.string().transform((value, context) => {
  const url = ORIGIN_SHAPE.test(value) ? parseHttpUrl(value) : undefined;
  if (url) return url.origin;
  context.addIssue({ code: 'custom', message: ORIGIN_MESSAGE });
  return z.NEVER;
});
