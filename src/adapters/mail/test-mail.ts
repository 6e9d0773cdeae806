// `postbox check --send-test-mail` (README.md "Running it for your site"; docs/configuration.md): one mail through the
// configured transport, sent now, and its outcome in words the owner can act on: on failure the SMTP server's host and
// port and its reply, or the network error.
import { getSystemErrorName } from 'node:util';
import type { MailConfig } from '../../config/config.js';
import type { Clock, MailMessage, SendOutcome } from '../../ports.js';
import { createMailer } from './create-mailer.js';
import { fileTransportNotice } from './outbox-dir.js';

export type TestMailOutcome = SendOutcome;

/** The test mail: fixed text, so that it says what it is and where it came from. */
export function createTestMail(from: string, to: string, sentAt: Date): MailMessage {
  return {
    from,
    to,
    subject: 'Postbox test mail',
    autoSubmitted: 'auto-generated',
    text: [
      'This is a test mail from Postbox, sent by "postbox check --send-test-mail".',
      '',
      `It left at ${sentAt.toISOString()}. If it reached you, the [mail] settings work: form submissions`,
      'and receipts go out the same way.',
      '',
    ].join('\n'),
  };
}

/** Sends the test mail to `to` through `mail`'s transport now, and closes the mailer. */
export function sendTestMail(mail: MailConfig, dataDir: string, to: string, clock: Clock): Promise<TestMailOutcome> {
  return sendOneMail(mail, dataDir, createTestMail(mail.from, to, new Date(clock())), clock, 'test mail');
}

/** Sends `message` through `mail`'s transport now (no queue), and closes the mailer; `what` names it in the report. */
export async function sendOneMail(mail: MailConfig, dataDir: string, message: MailMessage, clock: Clock, what: string): Promise<TestMailOutcome> {
  const mailer = createMailer(mail, dataDir, clock);
  try {
    await mailer.send(message);
  } catch (error) {
    return { ok: false, report: `${what} to ${message.to} not sent: ${describeSendFailure(error, mail)}` };
  } finally {
    await mailer.close().catch(() => undefined);
  }
  if (mail.transport === 'file') return { ok: true, report: `${what} to ${message.to} ${fileTransportNotice(dataDir)}` };
  return { ok: true, report: `${what} to ${message.to} sent: ${serverName(mail)} accepted it` };
}

/**
 * Why a send failed: the server's reply (nodemailer's `response`, e.g. "550 5.1.1 no such user", with the
 * command it answered) or the network error's code (ECONNREFUSED, ENOTFOUND, ETIMEDOUT).
 */
export function describeSendFailure(error: unknown, mail: MailConfig): string {
  const details = (error ?? {}) as { response?: unknown; command?: unknown; errno?: unknown; code?: unknown; message?: unknown };
  if (mail.transport === 'file') return `cannot write to the outbox: ${networkCode(details) ?? String(details.message)}`;
  if (typeof details.response === 'string' && details.response !== '') {
    const command = typeof details.command === 'string' && details.command !== 'CONN' ? ` to ${details.command}` : '';
    return `${serverName(mail)} answered${command}: ${details.response}`;
  }
  return `cannot reach ${serverName(mail)}: ${networkCode(details) ?? String(details.message ?? error)}`;
}

/** The system error name of a socket or DNS failure (nodemailer wraps them as ESOCKET or EDNS), else the code. */
function networkCode(details: { errno?: unknown; code?: unknown }): string | undefined {
  if (typeof details.errno === 'number' && details.errno < 0) {
    try {
      return getSystemErrorName(details.errno);
    } catch {
      // not a system error number
    }
  }
  return typeof details.code === 'string' ? details.code : undefined;
}

function serverName(mail: MailConfig & { transport: 'smtp' }): string {
  const { host, port } = mail.smtp;
  return `the SMTP server ${host.includes(':') ? `[${host}]` : host}:${port}`;
}
