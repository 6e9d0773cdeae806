// The providers' bounce webhooks as one intake (docs/bounces.md "Where bounces come from"): which providers are
// configured, and for one delivery (its headers and raw body) whether it is genuine, what it reports, and that
// the sink took every report before the provider hears "accepted". The outcome names what happened; answering
// HTTP is the route's concern (src/bounces/http/bounce-routes.ts).
import type { Logger } from '../../kit/log.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import type { Clock } from '../../ports.js';
import type { BounceOutcome, BounceReport, BounceSink } from '../bounce-report.js';
import { isMailgunFresh, isMailgunSigned, MAILGUN_WINDOW_MS, parseMailgun } from '../webhooks/mailgun.js';
import type { ParsedWebhook } from '../webhooks/parsed-webhook.js';
import { isPostmarkAuthorized, parsePostmark, type PostmarkCredentials } from '../webhooks/postmark.js';
import { createReplayGuard } from '../webhooks/replay-guard.js';
import { isSendgridFresh, isSendgridSigned, parseSendgrid, sendgridPublicKey, SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER } from '../webhooks/sendgrid.js';
import { parseSesNotification } from '../webhooks/ses.js';
import { isSnsUrl, parseSnsMessage, verifySnsSignature } from '../webhooks/sns.js';

export const WEBHOOK_PROVIDERS = ['postmark', 'ses', 'sendgrid', 'mailgun'] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** `[mail.bounces.webhooks]`: a provider is taken only when its table is there. */
export interface BounceWebhookSettings {
  postmark?: PostmarkCredentials;
  /** The SNS topics SES publishes to; a message from any other topic is refused. */
  ses?: { topicArns: readonly string[] };
  /** The Event Webhook's verification key, base64 DER as SendGrid shows it, or PEM. */
  sendgrid?: { publicKey: string };
  mailgun?: { signingKey: string };
}

export interface BounceWebhookDeps {
  sink: BounceSink;
  clock: Clock;
  logger: Logger;
  /**
   * GETs an https URL and resolves with its body: SNS signing certificates and subscription confirmations.
   * Rejects on a failed request or an answer other than 2xx.
   */
  fetchText(url: string): Promise<string>;
}

/** One delivery as it arrived: header names in lower case, the body as bytes. */
export interface WebhookDelivery {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
}

/** What a delivery came to; `why` is fixed text, safe to log. */
export type WebhookOutcome =
  | { kind: 'not_configured' }
  | { kind: 'unauthorized'; why: string }
  | { kind: 'invalid'; why: string }
  | { kind: 'accepted'; outcomes: BounceOutcome[] };

export interface BounceWebhooks {
  /** The providers configured, each answering at `/bounces/<provider>`. */
  readonly providers: readonly WebhookProvider[];
  receive(provider: WebhookProvider, delivery: WebhookDelivery): Promise<WebhookOutcome>;
}

/** SNS signing certificates kept, by URL: SNS signs with few, and changes them rarely. */
const MAX_CERTIFICATES = 16;

/** Builds the intake; throws when the SendGrid key is not an EC public key (a start that cannot work). */
export function createBounceWebhooks(settings: BounceWebhookSettings, deps: BounceWebhookDeps): BounceWebhooks {
  const { sink, clock, logger } = deps;
  const providers = WEBHOOK_PROVIDERS.filter((provider) => settings[provider] !== undefined);
  const sendgridKey = settings.sendgrid ? sendgridKeyOf(settings.sendgrid.publicKey) : undefined;
  // A timestamp may be up to the window ahead of now, so its token must be remembered for twice the window.
  const mailgunTokens = createReplayGuard(2 * MAILGUN_WINDOW_MS);
  const certificates = new Map<string, Promise<string>>();

  const refuse = (provider: WebhookProvider, why: string): WebhookOutcome => {
    logger.warn({ event: 'bounce_webhook_refused', provider, why }, 'bounce webhook refused');
    return { kind: 'unauthorized', why };
  };

  /** Hands every report to the sink, in order: the provider is answered only once all of them are durable. */
  const record = async (reports: readonly BounceReport[]): Promise<WebhookOutcome> => {
    const outcomes: BounceOutcome[] = [];
    for (const report of reports) outcomes.push(await sink.record(report));
    return { kind: 'accepted', outcomes };
  };
  const recordParsed = (parsed: ParsedWebhook): Promise<WebhookOutcome> | WebhookOutcome => (parsed.ok ? record(parsed.reports) : { kind: 'invalid', why: parsed.problem });

  /** The certificate at `url`, fetched once; a failed fetch is not kept, so the next message tries again. */
  const certificateAt = (url: string): Promise<string> => {
    let pending = certificates.get(url);
    if (pending === undefined) {
      if (certificates.size >= MAX_CERTIFICATES) certificates.delete(certificates.keys().next().value as string);
      pending = deps.fetchText(url);
      certificates.set(url, pending);
      pending.catch(() => certificates.delete(url));
    }
    return pending;
  };

  const receivers: Record<WebhookProvider, (delivery: WebhookDelivery) => Promise<WebhookOutcome>> = {
    async postmark({ headers, body }) {
      if (!isPostmarkAuthorized(header(headers, 'authorization'), settings.postmark!)) return refuse('postmark', 'wrong credentials');
      return recordParsed(parsePostmark(body, clock()));
    },

    async ses({ body }) {
      const message = parseSnsMessage(body);
      if (message === undefined) return { kind: 'invalid', why: 'not an SNS message' };
      if (!settings.ses!.topicArns.includes(message.topicArn)) return refuse('ses', 'topic not allowed');
      if (!isSnsUrl(message.signingCertUrl, { pem: true })) return refuse('ses', 'certificate not on an SNS host');
      let certificate: string;
      try {
        certificate = await certificateAt(message.signingCertUrl);
      } catch {
        // Amazon out of reach: answered 503, and SNS tries the delivery again later.
        throw new UnavailableError('sns');
      }
      if (!verifySnsSignature(message, certificate, clock())) return refuse('ses', 'wrong signature');
      if (message.type === 'SubscriptionConfirmation') {
        if (!isSnsUrl(message.subscribeUrl!)) return { kind: 'invalid', why: 'SubscribeURL not on an SNS host' };
        try {
          await deps.fetchText(message.subscribeUrl!);
        } catch {
          throw new UnavailableError('sns');
        }
        logger.info({ event: 'sns_subscription_confirmed', topic: message.topicArn }, 'SNS subscription confirmed');
        return { kind: 'accepted', outcomes: [] };
      }
      if (message.type === 'UnsubscribeConfirmation') {
        logger.warn({ event: 'sns_unsubscribed', topic: message.topicArn }, 'SNS subscription ended; bounces of this topic no longer arrive');
        return { kind: 'accepted', outcomes: [] };
      }
      return recordParsed(parseSesNotification(message.message, clock()));
    },

    async sendgrid({ headers, body }) {
      if (!isSendgridSigned(sendgridKey!, header(headers, SENDGRID_SIGNATURE_HEADER), header(headers, SENDGRID_TIMESTAMP_HEADER), body)) return refuse('sendgrid', 'wrong signature');
      if (!isSendgridFresh(header(headers, SENDGRID_TIMESTAMP_HEADER), clock())) return refuse('sendgrid', 'timestamp outside the window');
      return recordParsed(parseSendgrid(body, clock()));
    },

    async mailgun({ body }) {
      const now = clock();
      const parsed = parseMailgun(body, now);
      if (!parsed.ok) return { kind: 'invalid', why: parsed.problem };
      const { signature } = parsed;
      if (!isMailgunSigned(settings.mailgun!.signingKey, signature)) return refuse('mailgun', 'wrong signature');
      if (!isMailgunFresh(signature, now)) return refuse('mailgun', 'stale timestamp');
      if (!mailgunTokens.take(signature.token, now)) return refuse('mailgun', 'replayed token');
      try {
        return await record(parsed.reports);
      } catch (error) {
        // Mailgun tries a failed delivery again; that try must not count as a replay.
        mailgunTokens.release(signature.token);
        throw error;
      }
    },
  };

  return {
    providers,
    receive(provider, delivery) {
      if (!providers.includes(provider)) return Promise.resolve({ kind: 'not_configured' });
      return receivers[provider](delivery);
    },
  };
}

function sendgridKeyOf(value: string) {
  try {
    return sendgridPublicKey(value);
  } catch {
    throw new Error('mail.bounces.webhooks.sendgrid.public_key is not the verification key SendGrid shows (an elliptic-curve public key, base64 or PEM)');
  }
}

/** One header's value; a repeated header counts as missing, since no provider sends one twice. */
function header(headers: WebhookDelivery['headers'], name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
