// The small interfaces the services talk through: the mail core and the mail queue send through them, adapters
// (nodemailer, fetch, fs) implement them, and the composition root joins the two. That way what the core decides
// does not depend on which adapter carries it out, and a test can hand it a recording mailer or a fixed clock.

/**
 * The `Auto-Submitted` header of a mail (RFC 3834 section 5): `auto-replied` for an answer to what someone sent
 * (the receipt), `auto-generated` for every other mail Postbox writes on its own (owner mail, newsletter mails).
 * Mail systems keep such mail out of vacation replies and other automatic answers, so no two robots write to
 * each other in a loop.
 */
export type AutoSubmitted = 'auto-replied' | 'auto-generated';

/**
 * The list a mail to newsletter subscribers belongs to: `List-Id: <id>` (RFC 2919), `List-Unsubscribe:
 * <unsubscribeUrl>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
 */
export interface MailList {
  id: string;
  unsubscribeUrl: string;
}

/**
 * One mail, as plain data (it may be stored as JSON and sent later): plain text, with an optional HTML
 * alternative. Header values must already be free of CR and LF.
 */
export interface MailMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  /** Always there: the part every client can show, and the one spam filters expect beside HTML. */
  text: string;
  /** An HTML alternative of `text` (multipart/alternative, RFC 2046 section 5.1.4); a campaign sets it. */
  html?: string;
  /** Required, so that no mail Postbox writes goes out without it. */
  autoSubmitted: AutoSubmitted;
  /** Set on every mail to newsletter subscribers. */
  list?: MailList;
  /**
   * `Precedence: bulk` on a mail sent to many (a campaign): not in any RFC, but vacation responders and
   * some providers read it to skip auto-replies and sort the mail as bulk.
   */
  precedence?: 'bulk';
  /**
   * The SMTP envelope sender (MAIL FROM, where bounces go), set just before sending: `[mail.bounces] address` with
   * the mail's signed tag (docs/bounces.md "Suppression"). The From address when absent.
   */
  envelopeFrom?: string;
}

/** What sending one mail now came to, in words the owner can act on (the SMTP reply or network error on failure). */
export type SendOutcome = { ok: true; report: string } | { ok: false; report: string };

/** Sends mail; rejects when the message was not accepted for delivery. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Sends one chat notification; rejects when it did not get through. */
export interface ChatNotifier {
  send(text: string): Promise<void>;
}

/**
 * One accepted submission for a webhook, as plain data (it may be stored as JSON and sent later). `id` names
 * the delivery and stays the same when it is tried again, so that a receiver can drop a duplicate; the other
 * fields are those of the archive line (docs/forms-api.md "Delivery"), absent ones left out.
 */
export interface WebhookEvent {
  id: string;
  /** The form's path. */
  form: string;
  type: string;
  /** RFC 3339 UTC time the submission arrived. */
  received_at: string;
  name?: string;
  email: string;
  service?: string;
  message?: string;
  /** Signed links to the submission's scanned files (docs/attachments.md "Links"), when it has any. */
  attachments?: Array<{ filename: string; type: string; size: number; url: string }>;
}

/** Posts one submission to a form's webhook; rejects when the receiver did not accept it (a 2xx answer). */
export interface WebhookNotifier {
  send(event: WebhookEvent): Promise<void>;
}

/** Milliseconds since the epoch; tests pass a fixed or stepping clock. */
export type Clock = () => number;

/** `count` random bytes; tests pass a deterministic source. */
export type RandomBytes = (count: number) => Buffer;

/** Appends `record` as one line to `file` and makes it durable; rejects when that failed. */
export type AppendLine = (file: string, record: object) => Promise<void>;

/** What every archive record carries (src/forms/archive.ts "ArchiveLine" has the rest). */
export interface ArchiveRecord {
  /** The form's path. */
  form: string;
  /** RFC 3339 UTC time the submission arrived. */
  received_at: string;
}

/**
 * Where accepted submissions are kept before anything is sent (docs/forms-api.md "Delivery"): lines in
 * data_dir/<archive> or rows in PostgreSQL (`[state] backend`). `archive` is the form's configured archive name.
 * Resolves once the record is durable; rejects with UnavailableError when a shared store cannot be reached.
 */
export interface ArchiveStore {
  append(archive: string, line: ArchiveRecord): Promise<void>;
}

/** Answer to one rate-limit take: allowed, or the whole seconds until a token is back (the `Retry-After` value). */
export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** The buckets of one form: in this process (answering at once) or shared in Redis (src/adapters/redis/rate-limits.ts). */
export interface FormLimiter {
  /** Takes a token for `key`; a shared limiter rejects with UnavailableError when its store cannot be reached. */
  take(key: string, nowMs: number): TakeResult | Promise<TakeResult>;
}

/** The rate limiters of every form (docs/submission-rules.md "Rate limit"). */
export interface FormRateLimits {
  /** The limiter of the form at `formPath`; undefined when its rate_limit_per_hour is 0. */
  limiterFor(formPath: string): FormLimiter | undefined;
  /** Writes every limiter's state to the snapshot file (nothing for a shared store). */
  save(nowMs: number): Promise<void>;
  /** The parts that cannot be reached now, for /health ("redis"); none for limiters in memory. */
  unavailableParts?(): string[];
  /** Releases a connection. */
  close?(): Promise<void>;
}

/**
 * Time for what waits or repeats (the queue's retries, a campaign's pace, the bounce mailbox's polls, the blog's
 * scheduled posts): Node's clock and timers in a running service (src/kit/timers.ts), a test's fake time otherwise,
 * so that no test waits for real time to pass.
 */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` (at once when not positive). The timer never keeps the process alive. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned; a handle that already fired is ignored. */
  clearTimeout(handle: unknown): void;
}
