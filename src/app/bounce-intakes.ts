// Where bounces come from, as the composition builds it (docs/bounces.md "Where bounces come from"): the providers'
// webhooks of `[mail.bounces.webhooks]` (on the forms listener) and the IMAP mailbox of `[mail.bounces.imap]`, both
// handing their reports to the suppression policy's sink. Only what is configured is built.
import type { BounceMailbox, BounceMailboxDeps } from '../adapters/mail/bounce-mailbox.js';
import { startBounceMailbox } from '../adapters/mail/bounce-mailbox.js';
import { createTextFetcher } from '../adapters/notify/fetch-text.js';
import type { BounceSink } from '../bounces/bounce-report.js';
import { classifyBounce } from '../bounces/classify.js';
import { createBounceWebhooks, type BounceWebhooks, type BounceWebhookSettings } from '../bounces/intake/webhook-intake.js';
import type { BouncesConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';

/**
 * The webhooks of `bounces.webhooks`, or undefined without any provider or without a sink. `fetch` reaches SNS
 * (its signing certificates, the links that confirm a subscription); tests hand in their own.
 */
export function composeBounceWebhooks(
  bounces: Pick<BouncesConfig, 'webhooks'>,
  sink: BounceSink | undefined,
  deps: { logger: Logger; clock: Clock; fetch?: typeof fetch },
): BounceWebhooks | undefined {
  const configured = bounces.webhooks;
  if (configured === undefined || sink === undefined) return undefined;
  const settings: BounceWebhookSettings = {};
  if (configured.postmark) settings.postmark = { username: configured.postmark.username, password: configured.postmark.password };
  if (configured.ses) settings.ses = { topicArns: configured.ses.topic_arns };
  if (configured.sendgrid) settings.sendgrid = { publicKey: configured.sendgrid.public_key };
  if (configured.mailgun) settings.mailgun = { signingKey: configured.mailgun.signing_key };
  if (Object.keys(settings).length === 0) return undefined;
  return createBounceWebhooks(settings, { sink, logger: deps.logger, clock: deps.clock, fetchText: createTextFetcher({ fetch: deps.fetch }) });
}

/**
 * The mailbox of `bounces.imap`, polling from now on, its messages read by the classifier (src/bounces/classify.ts)
 * unless a test hands in another; undefined without a mailbox or without a sink.
 */
export function startBounceMailboxOf(
  bounces: Pick<BouncesConfig, 'imap'>,
  sink: BounceSink | undefined,
  deps: Omit<BounceMailboxDeps, 'sink' | 'classify'> & Partial<Pick<BounceMailboxDeps, 'classify'>>,
): BounceMailbox | undefined {
  const imap = bounces.imap;
  if (imap === undefined || sink === undefined) return undefined;
  return startBounceMailbox(
    { host: imap.host, port: imap.port, secure: imap.secure, user: imap.user, password: imap.password, folder: imap.folder, pollSeconds: imap.poll_seconds },
    { classify: classifyBounce, ...deps, sink },
  );
}
