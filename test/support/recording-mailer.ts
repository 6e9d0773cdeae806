// A Mailer (src/ports.ts) that records what it is asked to send and can be told to fail.
import type { MailMessage, Mailer } from '../../src/ports.js';

export interface RecordingMailer extends Mailer {
  /** Messages accepted, in order. */
  sent: MailMessage[];
  /** Messages refused because `failWhen` said so. */
  refused: MailMessage[];
  /** Decides per message whether `send` rejects; by default nothing fails. */
  failWhen: (message: MailMessage) => boolean;
  /** How many of the next messages to refuse whatever `failWhen` says; counts down with each one refused. */
  failNext: number;
  /** Runs inside `send` before the outcome, e.g. to look at the disk at that moment. */
  beforeSend?: (message: MailMessage) => Promise<void> | void;
  closed: boolean;
}

/** A recording mailer; set `failWhen` (or pass it), or `failNext`, to simulate a refusing mail server. */
export function createRecordingMailer(failWhen: (message: MailMessage) => boolean = () => false): RecordingMailer {
  const mailer: RecordingMailer = {
    sent: [],
    refused: [],
    failWhen,
    failNext: 0,
    closed: false,
    async send(message) {
      await mailer.beforeSend?.(message);
      if (mailer.failNext > 0 || mailer.failWhen(message)) {
        mailer.failNext = Math.max(0, mailer.failNext - 1);
        mailer.refused.push(message);
        throw Object.assign(new Error(`refused mail to ${message.to}`), { code: 'EENVELOPE', responseCode: 550 });
      }
      mailer.sent.push(message);
    },
    async close() {
      mailer.closed = true;
    },
  };
  return mailer;
}
