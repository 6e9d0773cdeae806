// What Fedify fetches (actors, keys, objects, JSON-LD contexts; docs/activitypub.md "Followers"), unsigned or signed
// by the blog's key, goes through the fetch given here instead of the global one: the app gives the fetch that
// checks each address and connects to that same address. Each redirect is a new fetch, so every hop is checked.
// Otherwise they load as Fedify's own loaders do: its preloaded contexts, its request headers, its reading of an
// answer (`getRemoteDocument`, which follows an alternate link through the same loader), and a cache for the process.
import { fedify, type Fedify } from './fedify.js';

/** Redirects followed for one document. */
const MAX_REDIRECTS = 10;

/** The HTTP Signatures a signed fetch tries in turn: the draft Mastodon verifies, then RFC 9421. */
const SIGNATURE_SPECS = ['draft-cavage-http-signatures-12', 'rfc9421'] as const;

type Knock = (url: string, signal: AbortSignal | undefined) => Promise<Response>;

export interface DocumentLoaderFactories {
  documentLoaderFactory: Fedify.DocumentLoaderFactory;
  contextLoaderFactory: Fedify.DocumentLoaderFactory;
  authenticatedDocumentLoaderFactory: Fedify.AuthenticatedDocumentLoaderFactory;
}

/** The three loader factories of createFederation, on `fetchWith`; fetched documents are cached in `kv`. */
export function createDocumentLoaderFactories(fetchWith: typeof fetch, kv: Fedify.KvStore): DocumentLoaderFactories {
  const { createActivityPubRequest, kvCache, signRequest } = fedify();
  const unsigned = (options?: Fedify.DocumentLoaderFactoryOptions) =>
    kvCache({ kv, loader: loaderOn((url, signal) => fetchWith(createActivityPubRequest(url, { userAgent: options?.userAgent }), { redirect: 'manual', signal })) });
  return {
    documentLoaderFactory: unsigned,
    contextLoaderFactory: unsigned,
    authenticatedDocumentLoaderFactory: (identity, options) =>
      loaderOn(async (url, signal) => {
        let response: Response | undefined;
        for (const spec of SIGNATURE_SPECS) {
          await response?.body?.cancel();
          const signed = await signRequest(createActivityPubRequest(url, { userAgent: options?.userAgent }), identity.privateKey, identity.keyId, { spec });
          response = await fetchWith(signed, { redirect: 'manual', signal });
          // A server that does not verify this kind of signature says 400 or 401: try the next kind.
          if (response.status !== 400 && response.status !== 401) break;
        }
        return response!;
      }),
  };
}

/** A loader whose every request, redirects included, is one `knock`. */
function loaderOn(knock: Knock): Fedify.DocumentLoader {
  const { FetchError, getRemoteDocument, preloadedContexts } = fedify();
  const load = async (url: string, options?: Fedify.DocumentLoaderOptions, redirects = 0): Promise<Fedify.RemoteDocument> => {
    options?.signal?.throwIfAborted();
    const current = new URL(url).href;
    if (current in preloadedContexts) return { contextUrl: null, document: preloadedContexts[current], documentUrl: current };
    const response = await knock(current, options?.signal);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (redirects >= MAX_REDIRECTS) throw new FetchError(current, `Too many redirections (${redirects + 1})`);
      return load(new URL(location, current).href, options, redirects + 1);
    }
    return getRemoteDocument(current, response, load);
  };
  return load;
}
