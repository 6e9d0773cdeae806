// The webhook channel (docs/configuration.md "[forms.webhook]"): one POST per submission, over fetch, in one
// of three shapes. `json` is signed by the Standard Webhooks specification through its own library; `slack` and
// `discord` are those services' incoming-webhook messages. A webhook URL often holds a secret (Slack's and
// Discord's are the secret), so no error from here carries the URL or the underlying message: only a reason.
import { Webhook } from 'standardwebhooks';
import type { WebhookConfig } from '../../config/config.js';
import { describeSubmissionFields } from '../../forms/notifications.js';
import type { Clock, WebhookEvent, WebhookNotifier } from '../../ports.js';
import { cutText } from './cut-text.js';

export interface WebhookOptions {
  fetch?: typeof fetch;
  /** How long one POST may take before it counts as failed; 10 s by default, as for Telegram. */
  timeoutMs?: number;
  /** The time of `webhook-timestamp`; Date.now unless a test sets it. */
  clock?: Clock;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Discord refuses a `content` longer than 2,000 characters; longer texts are cut there. */
export const DISCORD_CONTENT_LIMIT = 2000;

/** Why a webhook POST failed, in words that are safe to log. */
export type WebhookFailure = 'timeout' | 'network' | `http_${number}`;

/** A failed webhook POST; `reason` is safe to log, the message never holds the URL. */
export class WebhookError extends Error {
  constructor(readonly reason: WebhookFailure) {
    super(`webhook POST failed: ${reason}`);
    this.name = 'WebhookError';
  }
}

/** A request body and the headers that go with it. */
interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * A WebhookNotifier posting to `settings.url`. Only a 2xx answer counts as delivered: redirects are not
 * followed (a 302 would turn the POST into a GET without its body), and errors and time-outs reject.
 */
export function createWebhookNotifier(settings: WebhookConfig, options: WebhookOptions = {}): WebhookNotifier {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const clock = options.clock ?? Date.now;
  const toRequest = requestMaker(settings, clock);
  return {
    async send(event) {
      const { body, headers } = toRequest(event);
      let response: Response;
      try {
        response = await doFetch(settings.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as Error | undefined)?.name;
        throw new WebhookError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
      }
      // The answer's body means nothing here; dropping it frees the connection.
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status > 299) throw new WebhookError(`http_${response.status}`);
    },
  };
}

function requestMaker(settings: WebhookConfig, clock: Clock): (event: WebhookEvent) => WebhookRequest {
  if (settings.format === 'json') return signedJsonMaker(settings.secret, clock);
  const toBody = settings.format === 'slack' ? slackBodyOf : discordBodyOf;
  return (event) => ({ body: JSON.stringify(toBody(event)), headers: {} });
}

/** Standard Webhooks: the secret decoded once; each attempt signs "<id>.<timestamp>.<body>" at its own time. */
function signedJsonMaker(secret: string, clock: Clock): (event: WebhookEvent) => WebhookRequest {
  const signer = new Webhook(secret);
  return (event) => {
    const body = JSON.stringify(jsonShapeOf(event));
    const sentAt = new Date(clock());
    return {
      body,
      headers: {
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signer.sign(event.id, sentAt, body),
      },
    };
  };
}

/** Slack's incoming-webhook message. */
function slackBodyOf(event: WebhookEvent): object {
  return { text: toSlackText(describeEvent(event)) };
}

/** Discord's execute-webhook message; no "@everyone" or other mention in a submission pings anyone. */
function discordBodyOf(event: WebhookEvent): object {
  return { content: cutEscaped(toDiscordText(describeEvent(event)), DISCORD_CONTENT_LIMIT), allowed_mentions: { parse: [] } };
}

/** cutText for escaped text: a markup character cut off behind its backslash leaves no backslash before the "…". */
function cutEscaped(text: string, limit: number): string {
  const cut = cutText(text, limit);
  if (cut === text) return cut;
  const kept = cut.slice(0, -1);
  const backslashes = (/\\*$/.exec(kept)?.[0] ?? '').length;
  return backslashes % 2 === 1 ? `${kept.slice(0, -1)}…` : cut;
}

/**
 * `{"form","type","received_at","name","email","service","message"}` in that order, absent fields left out;
 * the id travels in the `webhook-id` header.
 */
function jsonShapeOf(event: WebhookEvent): Omit<WebhookEvent, 'id'> {
  const { form, type, received_at: receivedAt, name, email, service, message } = event;
  return {
    form,
    type,
    received_at: receivedAt,
    ...(name === undefined ? {} : { name }),
    email,
    ...(service === undefined ? {} : { service }),
    ...(message === undefined ? {} : { message }),
  };
}

function describeEvent({ id: _id, ...fields }: WebhookEvent): string {
  return describeSubmissionFields(fields);
}

/**
 * Slack reads `<...>` as links and mentions (`<!channel>` would alert a whole channel) and wants `&`, `<` and `>`
 * escaped as entities in any text meant literally (Slack API docs, "Formatting text: escaping").
 */
function toSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Discord renders Markdown, so a submission could make masked links, spoilers or headings; a backslash before
 * each markup character (`#`, `-` and `>` only where they start a line) shows the text as it was typed.
 */
function toDiscordText(text: string): string {
  return text.replace(/[\\*_~`|[\]()]/g, '\\$&').replace(/^([ \t]*)([#>-])/gm, '$1\\$2');
}
