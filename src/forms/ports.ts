// The small interfaces the forms core talks through; adapters (nodemailer, fetch, fs) implement them.

/** One plain-text mail. Header values must already be free of CR and LF. */
export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
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
