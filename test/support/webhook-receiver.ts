// A local webhook receiver (a node:http server on 127.0.0.1): records every request with its raw body and
// headers, so a test can verify a signature as a real receiver would, and answers as told: a status code, or
// not at all (for time-outs).
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

export type ReceiverAnswer = number | 'hang';

export interface ReceivedHook {
  method: string;
  /** The request path and query. */
  path: string;
  /** Header names in lower case, values as strings. */
  headers: Record<string, string>;
  /** The body exactly as it arrived (UTF-8). */
  body: string;
}

export interface WebhookReceiver {
  /** The receiver's URL with `path` (default "/hook") appended. */
  url(path?: string): string;
  requests: ReceivedHook[];
  /** How the next requests are answered (default 204); can be changed at any time. */
  answer: ReceiverAnswer;
  close(): Promise<void>;
}

/** Starts a receiver on an ephemeral loopback port. */
export async function startWebhookReceiver(answer: ReceiverAnswer = 204): Promise<WebhookReceiver> {
  const requests: ReceivedHook[] = [];
  const state = { answer };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') });
      const current = state.answer;
      if (current === 'hang') return;
      const location = current >= 300 && current < 400 ? { Location: '/elsewhere' } : {};
      response.writeHead(current, { 'Content-Type': 'text/plain', ...location }).end(current === 204 ? undefined : 'answer body');
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    requests,
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    close,
  };
}
