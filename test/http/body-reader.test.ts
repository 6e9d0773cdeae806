// The one bounded body reader (src/http/body-reader.ts) on its own: it hands on at most the limit, stops the stream
// at the chunk that passes it whatever the chunk size and the stream's own buffer, and tells a client gone away
// from a body too large.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { pumpBody, readWholeBody, type BodyEnd } from '../../src/http/body-reader.js';
import { createEndlessBody, letItRun, mostPulledFor } from '../support/endless-body.js';

const LIMIT = 256 * 1024;
const same = (end: BodyEnd) => end;

describe('pumpBody', () => {
  for (const chunkSize of [1000, 16 * 1024, 64 * 1024, 100 * 1024]) {
    for (const highWaterMark of [undefined, 1024 * 1024]) {
      it(`stops an endless body of ${chunkSize}-byte chunks at the limit (stream buffer ${highWaterMark ?? 'default'})`, async () => {
        const { stream, counter } = createEndlessBody(chunkSize, highWaterMark);
        let handedOn = 0;
        const end = await pumpBody(stream, LIMIT, (chunk) => (handedOn += chunk.length), same);
        assert.equal(end, 'too_large');
        assert.ok(handedOn <= LIMIT, `handed on ${handedOn} bytes for a limit of ${LIMIT}`);
        await letItRun();
        assert.equal(stream.isPaused(), true);
        assert.ok(counter.produced <= mostPulledFor(stream, LIMIT, chunkSize), `pulled ${counter.produced} bytes for a limit of ${LIMIT}`);
        const stopped = counter.produced;
        await letItRun();
        assert.equal(counter.produced, stopped, 'nothing more is pulled once stopped');
        stream.destroy();
      });
    }
  }

  it('hands on a body of exactly the limit whole', async () => {
    const chunks: Buffer[] = [];
    const end = await pumpBody(Readable.from([Buffer.alloc(LIMIT - 10, 1), Buffer.alloc(10, 2)]), LIMIT, (chunk) => chunks.push(chunk), same);
    assert.equal(end, 'end');
    assert.equal(Buffer.concat(chunks).length, LIMIT);
  });

  it('a client that goes away mid-body is aborted, and a later error is not unhandled', async () => {
    const stream = new Readable({ read() {} });
    stream.push('{"name":');
    setImmediate(() => stream.destroy(new Error('aborted')));
    assert.equal(await pumpBody(stream, LIMIT, () => undefined, same), 'aborted');
  });

  it('a body already read to its end is an empty body', async () => {
    const stream = Readable.from([]);
    stream.resume();
    await new Promise((resolve) => stream.once('end', resolve));
    assert.equal(await pumpBody(stream, LIMIT, () => assert.fail('no chunk'), same), 'end');
  });
});

describe('readWholeBody', () => {
  it('judges a declared Content-Length before reading a byte', async () => {
    const { stream, counter } = createEndlessBody();
    stream.pause();
    assert.deepEqual(await readWholeBody(stream, String(LIMIT + 1), LIMIT), { ok: false, error: 'body_too_large' });
    assert.equal(counter.produced, 0);
    stream.destroy();
  });

  it('refuses an endless body without a length, having pulled no more than the limit, one chunk and the stream\'s buffer', async () => {
    const { stream, counter } = createEndlessBody();
    assert.deepEqual(await readWholeBody(stream, undefined, LIMIT), { ok: false, error: 'body_too_large' });
    await letItRun();
    assert.ok(counter.produced <= mostPulledFor(stream, LIMIT, 16 * 1024), `pulled ${counter.produced} bytes for a limit of ${LIMIT}`);
    stream.destroy();
  });

  it('gives the whole body, and an incomplete one as invalid', async () => {
    assert.deepEqual(await readWholeBody(Readable.from([Buffer.from('{"a"'), Buffer.from(':1}')]), undefined, LIMIT), { ok: true, body: Buffer.from('{"a":1}') });
    const cut = new Readable({ read() {} });
    cut.push('{"a"');
    setImmediate(() => cut.destroy(new Error('aborted')));
    assert.deepEqual(await readWholeBody(cut, '100', LIMIT), { ok: false, error: 'invalid_body' });
  });
});
