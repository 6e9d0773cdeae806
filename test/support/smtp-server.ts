// A real SMTP server (the `smtp-server` package) on 127.0.0.1 for tests of real mail delivery. It keeps the
// raw message, its parsed form (mailparser) and the envelope of everything it accepts, and can be told to
// refuse recipients or message data, like a mail server that rejects.
import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { waitFor } from './wait.js';

/** One accepted message. */
export interface ReceivedMessage {
  /** MAIL FROM of the envelope. */
  mailFrom: string;
  /** RCPT TO addresses of the envelope, as sent. */
  recipients: string[];
  /** The message exactly as transferred (CRLF line ends). */
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpServerOptions {
  /** Refuse RCPT TO for recipients this returns true for (550). */
  rejectRecipient?: (address: string) => boolean;
  /** Refuse the message after DATA when this returns true (554). */
  rejectData?: (envelope: { recipients: string[] }) => boolean;
  /** Listen on this port (a server started again where a stopped one was); an ephemeral one unless given. */
  port?: number;
  /**
   * Awaited after a message's data arrived and before the server answers: resolving false refuses it (451) and it
   * is not recorded. A test holds messages here, to stop or kill the sender while one is in flight.
   */
  beforeAccept?: (envelope: { recipients: string[] }) => Promise<boolean>;
}

export interface TestSmtpServer {
  host: '127.0.0.1';
  port: number;
  received: ReceivedMessage[];
  /** Attempts refused by rejectRecipient or rejectData. */
  refusals: number;
  /** Messages whose data arrived and that the server has not answered yet (those held by beforeAccept included). */
  unanswered: number;
  /** Options can be changed while the server runs. */
  options: SmtpServerOptions;
  /** Waits (bounded) until `count` messages have been accepted. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** Waits (bounded) for the first accepted message matching `predicate`; `what` names it in the time-out error. */
  waitForMessage(what: string, predicate: (message: ReceivedMessage) => boolean, timeoutMs?: number): Promise<ReceivedMessage>;
  close(): Promise<void>;
}

/** Starts a plain-text SMTP server (no STARTTLS, authentication optional) on a loopback port, ephemeral unless given. */
export async function startSmtpServer(initial: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMessage[] = [];
  const state = { refusals: 0, unanswered: 0, options: { ...initial } };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) {
      if (state.options.rejectRecipient?.(address.address)) {
        state.refusals += 1;
        callback(Object.assign(new Error('Recipient refused by test server'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
        if (state.options.rejectData?.({ recipients })) {
          state.refusals += 1;
          callback(Object.assign(new Error('Message refused by test server'), { responseCode: 554 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        state.unanswered += 1;
        const answer = (error?: Error) => {
          state.unanswered -= 1;
          callback(error);
        };
        const gate = state.options.beforeAccept?.({ recipients }) ?? Promise.resolve(true);
        gate.then(async (accepted) => {
          if (!accepted) {
            answer(Object.assign(new Error('Message held back by test server'), { responseCode: 451 }));
            return;
          }
          const parsed = await simpleParser(raw);
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          received.push({ mailFrom, recipients, raw, parsed });
          answer();
        }).catch((error: Error) => answer(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(initial.port ?? 0, '127.0.0.1', () => resolve());
  });
  // A connection reset by a client (a sender killed mid-message) is the client's failure, not the server's.
  server.on('error', () => undefined);
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    received,
    get refusals() {
      return state.refusals;
    },
    get unanswered() {
      return state.unanswered;
    },
    get options() {
      return state.options;
    },
    set options(value) {
      state.options = value;
    },
    waitForMessages: (count, timeoutMs = 15_000) =>
      waitFor(`${count} SMTP message(s)`, () => (received.length >= count ? received.slice(0, count) : undefined), timeoutMs),
    waitForMessage: (what, predicate, timeoutMs = 15_000) => waitFor(`a mail: ${what}`, () => received.find(predicate), timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the message was delivered to `address` (an envelope recipient, compared case-insensitively). */
export function isAddressedTo(message: ReceivedMessage, address: string): boolean {
  const wanted = address.toLowerCase();
  return message.recipients.some((recipient) => recipient.toLowerCase() === wanted);
}

/** The unfolded values of header `name` in a raw message, one entry per occurrence. */
export function rawHeaderValues(raw: string, name: string): string[] {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const prefix = `${name.toLowerCase()}:`;
  return unfolded
    .split(/\r?\n/)
    .filter((line) => line.toLowerCase().startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

/** A loopback port that was free a moment ago, for a mail server that is down now and started there later. */
export async function findFreePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
