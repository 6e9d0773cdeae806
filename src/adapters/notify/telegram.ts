// Chat notifications through the Telegram Bot API `sendMessage` method, over fetch (docs/configuration.md
// "[forms.telegram]"). The bot token is part of the URL, so no error from here carries the URL or the
// underlying message: only a fixed reason.
import type { ChatNotifier } from '../../ports.js';
import { cutText } from './cut-text.js';

export interface TelegramSettings {
  botToken: string;
  chatId: string;
  /** Base URL of the Bot API, `https://api.telegram.org` unless a test points it elsewhere. */
  apiUrl: string;
}

export interface TelegramOptions {
  fetch?: typeof fetch;
  /** How long one call may take before it counts as failed; 10 s by default. */
  timeoutMs?: number;
}

export const TELEGRAM_TIMEOUT_MS = 10_000;

/** Telegram rejects texts longer than 4,096 characters; longer notifications are cut there. */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** Why a notification failed, in words that are safe to log. */
export type TelegramFailure = 'timeout' | 'network' | `http_${number}` | 'not_ok';

/** A failed `sendMessage`; `reason` is safe to log, the message never holds the token. */
export class TelegramError extends Error {
  constructor(readonly reason: TelegramFailure) {
    super(`Telegram sendMessage failed: ${reason}`);
    this.name = 'TelegramError';
  }
}

/** A ChatNotifier posting to `${apiUrl}/bot${token}/sendMessage`; non-2xx, `ok: false`, errors and time-outs reject. */
export function createTelegramNotifier(settings: TelegramSettings, options: TelegramOptions = {}): ChatNotifier {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? TELEGRAM_TIMEOUT_MS;
  const endpoint = `${settings.apiUrl.replace(/\/+$/, '')}/bot${settings.botToken}/sendMessage`;
  return {
    async send(text) {
      let response: Response;
      try {
        response = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ chat_id: settings.chatId, text: cutText(text, TELEGRAM_TEXT_LIMIT), disable_web_page_preview: true }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as Error | undefined)?.name;
        throw new TelegramError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
      }
      let answer: unknown;
      try {
        answer = await response.json();
      } catch (error) {
        if ((error as Error | undefined)?.name === 'TimeoutError') throw new TelegramError('timeout');
        answer = undefined;
      }
      if (!response.ok) throw new TelegramError(`http_${response.status}`);
      if ((answer as { ok?: unknown } | undefined)?.ok !== true) throw new TelegramError('not_ok');
    },
  };
}
