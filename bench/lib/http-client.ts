// Sequential requests over one kept-alive connection, timed from the client side (for latency figures).
import http from 'node:http';

export interface TimedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

/** A client with its own keep-alive agent; close() frees its sockets. */
export function createClient(): { get(url: string): Promise<TimedResponse>; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (url) =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        const request = http.get(url, { agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms: performance.now() - started }),
          );
          response.on('error', reject);
        });
        request.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}

/** The parsed JSON body, or undefined when it is not JSON. */
export function parseJson<T>(response: TimedResponse): T | undefined {
  try {
    return JSON.parse(response.body.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Headers node:http writes by itself (or that depend on the connection): a reference server does not replay them. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The headers of an answer that a reference server replays to send the same bytes. */
export function replayableHeaders(headers: Iterable<[string, unknown]>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) if (!NODE_HEADERS.has(name) && typeof value === 'string') kept[name] = value;
  return kept;
}
