// A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed with mailparser.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait.js';

/** A message as delivered: the SMTP envelope and the parsed mail. */
export interface ReceivedMail {
  recipients: string[];
  mail: ParsedMail;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the first received mail matching `predicate`, failing after a bounded wait. */
  waitForMail(what: string, predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Starts the sink on an ephemeral port; plain SMTP (no STARTTLS offered), no authentication needed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push({ recipients: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    waitForMail: (what, predicate, timeoutMs = 15_000) =>
      waitFor(`a mail: ${what}`, () => mails.find(predicate), timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the mail was delivered to `address` (envelope recipient). */
export function isAddressedTo(received: ReceivedMail, address: string): boolean {
  return received.recipients.includes(address.toLowerCase());
}
