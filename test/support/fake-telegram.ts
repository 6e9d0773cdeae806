// A local stand-in for the Telegram Bot API (a node:http server on 127.0.0.1): records every sendMessage
// call and answers as told: ok, an HTTP error status, {"ok":false}, or not at all (for time-outs).
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

export type TelegramAnswer = 'ok' | 'not_ok' | 'hang' | { status: number };

export interface TelegramCall {
  /** The request path, which carries the bot token: /bot<token>/sendMessage. */
  path: string;
  body: { chat_id?: unknown; text?: unknown; [key: string]: unknown };
}

export interface FakeTelegram {
  /** The base URL to put in `api_url`. */
  url: string;
  calls: TelegramCall[];
  /** How the next calls are answered; can be changed at any time. */
  answer: TelegramAnswer;
  close(): Promise<void>;
}

/** Starts the fake on an ephemeral port, answering `answer` (default "ok"). */
export async function startFakeTelegram(answer: TelegramAnswer = 'ok'): Promise<FakeTelegram> {
  const calls: TelegramCall[] = [];
  const state = { answer };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: TelegramCall['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TelegramCall['body'];
      } catch {
        // recorded as an empty body
      }
      calls.push({ path: request.url ?? '', body });
      const current = state.answer;
      if (current === 'hang') return;
      const reply = (status: number, payload: unknown) =>
        response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
      if (!/^\/bot[^/]+\/sendMessage$/.test(request.url ?? '')) reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      else if (current === 'ok') reply(200, { ok: true, result: { message_id: calls.length } });
      else if (current === 'not_ok') reply(200, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
      else reply(current.status, { ok: false, error_code: current.status, description: 'Internal Server Error' });
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get answer() {
      return state.answer;
    },
    set answer(value) {
      state.answer = value;
    },
    close,
  };
}
