// How webmentions reach other sites (docs/comments.md "Webmentions"): one function that fetches a page within the
// limits below and refuses private addresses, carried out by src/adapters/web/guarded-fetch.ts.

/** A page as it was answered, after redirects; a page larger than the limit is refused, not cut. */
export interface FetchedPage {
  status: number;
  /** Where the page was found, after redirects. */
  url: string;
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /** Every Link header line as it was sent (RFC 8288), for endpoint discovery. */
  links: string[];
  body: string;
}

/** A request that was not made or not finished; `reason` is shown on a webmention's status page. */
export class PageRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PageRefused';
  }
}

/** GET a page (or POST a form body to it); rejects with PageRefused when a limit or the address rule stops it. */
export type FetchPage = (url: string, request?: { form?: Record<string, string> }) => Promise<FetchedPage>;

/** The limits of a webmention's fetches (the Webmention Recommendation section 4.2 asks receivers to set some). */
export const PAGE_LIMITS = Object.freeze({ maxBytes: 1024 * 1024, timeoutMs: 5000, maxRedirects: 3 });
