// Temporary or permanent (docs/delivery.md "Retries"): SMTP 4xx (421 included) and network errors are
// temporary, SMTP 5xx permanent; HTTP 429 and 5xx temporary, other 4xx permanent. What a failure carries into
// a log is a code and, for SMTP, the server's reply with every address in it replaced: never an address or a
// field of the submission.
import { safeReason } from '../kit/safe-reason.js';

export interface DeliveryFailure {
  permanent: boolean;
  /** A short code safe to log: `smtp_550`, `http_503`, `ECONNREFUSED`, `timeout`. */
  reason: string;
  /** The SMTP server's reply, addresses removed, when there was one. */
  reply?: string;
}

/** Errors that can never succeed on a retry, whatever the server says next time. */
const PERMANENT_CODES = new Set(['EUNSAFEHEADER', 'ENOCHANNEL', 'EENVELOPE', 'EMESSAGE', 'EPRIVATEADDRESS']);

/** How a failed send should be treated. Anything not known to be permanent is retried. */
export function classifyFailure(error: unknown): DeliveryFailure {
  const details = (error ?? {}) as { responseCode?: unknown; response?: unknown; code?: unknown };
  const reason = safeReason(error);
  const reply = typeof details.response === 'string' ? scrubReply(details.response) : undefined;
  const withReply = reply === undefined ? {} : { reply };
  if (typeof details.responseCode === 'number') {
    return { permanent: details.responseCode >= 500 && details.responseCode < 600, reason, ...withReply };
  }
  const http = /^http_(\d{3})$/.exec(reason);
  if (http) {
    const status = Number(http[1]);
    return { permanent: status >= 400 && status < 500 && status !== 429 && status !== 408, reason };
  }
  return { permanent: typeof details.code === 'string' && PERMANENT_CODES.has(details.code), reason, ...withReply };
}

const REPLY_LIMIT = 300;

/** The reply on one line, short, with anything that looks like an address (`a@b`, `<a@b>`) replaced. */
export function scrubReply(reply: string): string {
  const oneLine = reply.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const scrubbed = oneLine.replace(/<[^<>]*@[^<>]*>|[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '<address>');
  return scrubbed.length > REPLY_LIMIT ? `${scrubbed.slice(0, REPLY_LIMIT)}…` : scrubbed;
}
