// The one reader of a request body under a size limit (docs/configuration.md "[server]" max_body_bytes): the forms'
// bodies, the bounce webhooks' and /admin's all come through it. A declared Content-Length over the limit is
// refused before a byte is read; otherwise the chunks are handed on until the limit, and the chunk that passes it
// is dropped and the stream left paused and unread. The stream itself may still read ahead into its own buffer
// (at most its `readableHighWaterMark`, 16 KiB before Node 22 and 64 KiB since); for a request that ends when the
// 413 answer, sent with `connection: close`, closes the connection. Nothing here answers HTTP.
import type { Readable } from 'node:stream';

/** How a read ended: the whole body came, it passed the limit, or the client went away first. */
export type BodyEnd = 'end' | 'too_large' | 'aborted';

/** A whole body, or why there is none. */
export type WholeBody = { ok: true; body: Buffer } | { ok: false; error: 'body_too_large' | 'invalid_body' };

/** Whether a request's Content-Length declares more than `maxBytes`: then it is refused unread. */
export function isDeclaredTooLarge(contentLength: string | undefined, maxBytes: number): boolean {
  return contentLength !== undefined && Number(contentLength) > maxBytes;
}

/**
 * Hands each chunk of `stream` to `onChunk` until it ends, never more than `maxBytes` in all: at the chunk that
 * would pass it the stream is paused and left, and the read ends `too_large`. Resolves with `settle(end)`, called
 * where the reading ends, so that a caller parsing the body then takes no extra promise per request.
 */
export function pumpBody<T>(stream: Readable, maxBytes: number, onChunk: (chunk: Buffer) => void, settle: (end: BodyEnd) => T): Promise<T> {
  if (stream.readableEnded) {
    // Read by nothing else before (an ended stream never says 'end' again); a client that goes away later must
    // not surface as an unhandled 'error' event.
    stream.on('error', ignore);
    return Promise.resolve(settle('end'));
  }
  return new Promise((resolve) => {
    let received = 0;
    let settled = false;
    const finish = (end: BodyEnd) => {
      if (settled) return;
      settled = true;
      // An ended stream emits nothing more that matters ('close' finds the read settled): only a stream left
      // unread needs its listeners taken off. onAbort stays for 'error', so that a client that goes away later
      // never surfaces as an unhandled 'error' event.
      if (end !== 'end') {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('close', onAbort);
      }
      resolve(settle(end));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        stream.pause();
        finish('too_large');
      } else {
        onChunk(chunk);
      }
    };
    const onEnd = () => finish('end');
    const onAbort = () => finish('aborted');
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onAbort);
    stream.on('close', onAbort);
  });
}

/**
 * The whole body of `stream`, at most `maxBytes`: larger is `body_too_large` (from `contentLength` alone when it
 * says so), a client gone before the end `invalid_body`.
 */
export function readWholeBody(stream: Readable, contentLength: string | undefined, maxBytes: number): Promise<WholeBody> {
  if (isDeclaredTooLarge(contentLength, maxBytes)) return Promise.resolve({ ok: false, error: 'body_too_large' });
  const chunks: Buffer[] = [];
  return pumpBody(stream, maxBytes, (chunk) => chunks.push(chunk), (end) =>
    end === 'end' ? { ok: true, body: Buffer.concat(chunks) } : { ok: false, error: end === 'too_large' ? 'body_too_large' : 'invalid_body' },
  );
}

function ignore(): void {}
