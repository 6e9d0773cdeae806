// [forms.webhook] (docs/configuration.md "[forms.webhook]"): where a form's submissions are posted, in which
// shape, and the Standard Webhooks secret that signs the `json` shape.
import { z } from 'zod';
import { httpUrl } from './urls.js';

const WEBHOOK_FORMATS = ['json', 'slack', 'discord'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * The Standard Webhooks specification ("Symmetric signatures") asks for keys of 24 to 64 random bytes; fewer
 * make the HMAC easier to guess. Longer ones are accepted: HMAC takes any length.
 */
const MIN_WEBHOOK_SECRET_BYTES = 24;

const SECRET_MESSAGE = `must be "whsec_" followed by at least ${MIN_WEBHOOK_SECRET_BYTES} random bytes in base64, as \`echo "whsec_$(openssl rand -base64 32)"\` prints`;

// Standard base64 (RFC 4648 section 4) with its padding, the encoding the Standard Webhooks libraries decode.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `whsec_<base64 key>`; the message never quotes the value, which is a secret. */
const signingSecret = z.string().superRefine((value, context) => {
  const body = value.startsWith('whsec_') ? value.slice('whsec_'.length) : undefined;
  const ok = body !== undefined && BASE64.test(body) && Buffer.from(body, 'base64').length >= MIN_WEBHOOK_SECRET_BYTES;
  if (!ok) context.addIssue({ code: 'custom', message: SECRET_MESSAGE });
});

/** An http(s) URL fetch can post to: fetch refuses a URL with a user name or password in it. */
const webhookUrl = httpUrl.refine((href) => {
  const url = new URL(href);
  return url.username === '' && url.password === '';
}, 'must not contain a user name or password (put a token in the path or query instead)');

/** What a webhook is configured with: the `json` shape is always signed, Slack and Discord never are. */
export type WebhookConfig = { url: string; format: 'json'; secret: string } | { url: string; format: 'slack' | 'discord' };

export const webhookSchema = z
  .strictObject({
    url: webhookUrl,
    secret: signingSecret.optional(),
    format: z.enum(WEBHOOK_FORMATS).default('json'),
  })
  .superRefine((value, context) => {
    if (value.format === 'json' && value.secret === undefined) {
      context.addIssue({ code: 'custom', path: ['secret'], message: 'is required with format = "json": the Standard Webhooks signing secret ("whsec_...")' });
    }
    if (value.format !== 'json' && value.secret !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `is only used with format = "json": ${value.format === 'slack' ? 'Slack' : 'Discord'} webhooks are not signed, their URL is the secret`,
      });
    }
  })
  .transform(({ url, format, secret }): WebhookConfig => (format === 'json' ? { url, format, secret: secret as string } : { url, format }));
