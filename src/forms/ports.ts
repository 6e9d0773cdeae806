// The small interfaces the forms core talks through; adapters (nodemailer, fetch, fs) implement them.

/**
 * The `Auto-Submitted` header of a mail (RFC 3834 section 5): `auto-replied` for an answer to what someone sent
 * (the receipt), `auto-generated` for every other mail Postbox writes on its own (owner mail, newsletter mails).
 * Mail systems keep such mail out of vacation replies and other automatic answers, so no two robots write to
 * each other in a loop.
 */
export type AutoSubmitted = 'auto-replied' | 'auto-generated';

/**
 * One plain-text mail, as plain data (it may be stored as JSON and sent later). Header values must already be
 * free of CR and LF.
 */
export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  /** Required, so that no mail Postbox writes goes out without it. */
  autoSubmitted: AutoSubmitted;
}

/** Sends mail; rejects when the message was not accepted for delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Sends one chat notification; rejects when it did not get through. */
export interface ChatNotifier {
  send(text: string): Promise<void>;
}

/** Milliseconds since the epoch; tests pass a fixed or stepping clock. */
export type Clock = () => number;

/** `count` random bytes; tests pass a deterministic source. */
export type RandomBytes = (count: number) => Buffer;

/** Appends `record` as one line to `file` and makes it durable; rejects when that failed. */
export type AppendLine = (file: string, record: object) => Promise<void>;
