// `transport = "smtp"`: nodemailer's pooled SMTP transport, configured from [mail.smtp]
// (docs/configuration.md "[mail.smtp]").
import type Nodemailer from 'nodemailer';
import type { DkimConfig, SmtpConfig } from '../../config/config.js';
import { lazyModule } from '../../kit/lazy-module.js';
import type { Mailer } from '../../ports.js';
import { dkimTransportOptions } from './dkim.js';
import { createNodemailerMailer } from './nodemailer-mailer.js';

const nodemailer = lazyModule<typeof Nodemailer>('nodemailer');

/** Time-outs for a mail server that stalls: a form answer must not hang on it for minutes. */
export const SMTP_TIMEOUTS = Object.freeze({
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
});

/**
 * A pooled SMTP mailer. `secure = true` is implicit TLS (port 465); otherwise STARTTLS is used when the
 * server offers it. Authentication only when a username is configured. Five pooled connections (nodemailer's
 * own default): each message waits on SMTP round trips, so with fewer, a burst of submissions queues
 * (docs/performance.md). Every message is DKIM-signed when `dkim` is given.
 */
export function createSmtpMailer(smtp: SmtpConfig, dkim?: DkimConfig): Mailer {
  const transport = nodemailer().createTransport({
    pool: true,
    maxConnections: 5,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.username === undefined ? {} : { auth: { user: smtp.username, pass: smtp.password ?? '' } }),
    ...SMTP_TIMEOUTS,
    ...dkimTransportOptions(dkim),
  });
  return createNodemailerMailer(transport);
}
