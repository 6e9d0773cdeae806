// readFormBody on its own: the size limit is enforced while reading, never after.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { parseJsonObject, readFormBody } from '../../src/forms/request-body.js';
import { createEndlessBody, letItRun, mostPulledFor } from '../support/endless-body.js';

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/** What parseJsonObject must answer for `bytes`: the JSON of a fatal TextDecoder's text, or an invalid body. */
function viaTextDecoder(bytes: Uint8Array): unknown {
  try {
    return { ok: true, fields: JSON.parse(fatalDecoder.decode(bytes)) };
  } catch {
    return { ok: false, error: 'invalid_body', message: 'The body is not valid JSON.' };
  }
}

describe('readFormBody', () => {
  for (const contentType of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', undefined]) {
    it(`stops reading an endless ${contentType ?? 'untyped'} body at max_body_bytes`, async () => {
      const limit = 256 * 1024;
      const { stream, counter } = createEndlessBody();
      const outcome = await readFormBody({ stream, contentType, contentLength: undefined }, limit);
      assert.deepEqual(outcome.ok ? 'ok' : outcome.error, 'body_too_large');
      await letItRun();
      assert.ok(counter.produced <= mostPulledFor(stream, limit, 16 * 1024), `read ${counter.produced} bytes for a limit of ${limit}`);
      stream.destroy();
    });
  }

  it('judges a declared Content-Length before reading a byte', async () => {
    const { stream, counter } = createEndlessBody();
    stream.pause();
    const outcome = await readFormBody({ stream, contentType: 'application/json', contentLength: '1000001' }, 1_000_000);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.ok ? undefined : outcome.error, 'body_too_large');
    assert.equal(counter.produced, 0);
    stream.destroy();
  });

  it('a client that goes away mid-body is an incomplete body, not a crash', async () => {
    const stream = new Readable({ read() {} });
    stream.push('{"name":');
    setImmediate(() => stream.destroy(new Error('aborted')));
    const outcome = await readFormBody({ stream, contentType: 'application/json', contentLength: '100' }, 1000);
    assert.deepEqual(outcome.ok ? 'ok' : outcome.error, 'invalid_body');
  });

  it('parses JSON objects only, keeping values as sent', async () => {
    const outcome = await readFormBody({ stream: Readable.from([Buffer.from('{"name":"Ada","n":1,"x":null}')]), contentType: 'application/json', contentLength: undefined }, 1000);
    assert.deepEqual(outcome, { ok: true, fields: { name: 'Ada', n: 1, x: null } });
  });

  it('decodes JSON bytes as strict UTF-8, a leading BOM dropped, exactly like a fatal TextDecoder', () => {
    const bodies = [
      Buffer.from('{"name":"Zoë 🦊"}'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3]),
      Buffer.from(' {"a":"\\ud800"} '),
      Buffer.from('{"a":1}x').subarray(0, 7),
      Buffer.from('{"a":"\ufffd sent as such"}'),
      Buffer.concat([Buffer.from('{"a":"\ufffd'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      new Uint8Array(Buffer.from('{"in":"a Uint8Array"}')),
    ];
    for (const bytes of bodies) {
      assert.deepEqual(parseJsonObject(bytes), viaTextDecoder(bytes), bytes.toString('hex'));
    }
  });

  it('holds to a fatal TextDecoder over arbitrary bytes in a JSON string', () => {
    const replacement = [0xef, 0xbf, 0xbd];
    // Bytes of every kind: ASCII, lead and continuation bytes, U+FFFD's own bytes, a BOM's.
    const byte = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(...replacement, 0xbb));
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.oneof(byte, fc.constant(replacement)), { maxLength: 40 }), (bom, parts) => {
        const inner = parts.flat().filter((value) => value !== 0x22 && value !== 0x5c);
        const bytes = Buffer.from([...(bom ? [0xef, 0xbb, 0xbf] : []), 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...inner, 0x22, 0x7d]);
        assert.deepEqual(parseJsonObject(bytes), viaTextDecoder(bytes), bytes.toString('hex'));
      }),
      { numRuns: 2000 },
    );
  });
});
