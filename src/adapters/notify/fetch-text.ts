// GETs a small text over HTTPS (docs/bounces.md "Where bounces come from"): the signing certificate an SNS
// message names, and the link that confirms an SNS subscription. Redirects are not followed, the answer must be a
// 2xx, and it must arrive within the time-out and the size limit; a failure rejects with a reason safe to log.

export interface FetchTextOptions {
  fetch?: typeof fetch;
  /** How long one GET may take; 10 s by default, as for a webhook. */
  timeoutMs?: number;
  /** The most bytes an answer may have; a certificate is about 2 KB. */
  maxBytes?: number;
}

/** Why a GET failed: `timeout`, `network`, `too_large` or `http_<status>`. */
export class FetchTextError extends Error {
  constructor(readonly reason: string) {
    super(`GET failed: ${reason}`);
    this.name = 'FetchTextError';
  }
}

/** A fetcher resolving with the body of a 2xx answer to a GET of `url`. */
export function createTextFetcher(options: FetchTextOptions = {}): (url: string) => Promise<string> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 256 * 1024;
  return async (url) => {
    let response: Response;
    try {
      response = await doFetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new FetchTextError((error as Error).name === 'TimeoutError' ? 'timeout' : 'network');
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      throw new FetchTextError(`http_${response.status}`);
    }
    const chunks: Uint8Array[] = [];
    let received = 0;
    const reader = response.body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (next === undefined || next.done) break;
        received += next.value.byteLength;
        if (received > maxBytes) {
          await reader!.cancel().catch(() => undefined);
          throw new FetchTextError('too_large');
        }
        chunks.push(next.value);
      }
    } catch (error) {
      if (error instanceof FetchTextError) throw error;
      throw new FetchTextError((error as Error).name === 'TimeoutError' ? 'timeout' : 'network');
    }
    return Buffer.concat(chunks).toString('utf8');
  };
}
