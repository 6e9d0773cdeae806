// readAdminForm on its own: fields and files of an admin POST, and the size limit kept while reading, through the
// one bounded reader, for every type a client may send.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { readAdminForm } from '../../src/admin/form-body.js';
import { createEndlessBody, letItRun, mostPulledFor } from '../support/endless-body.js';

const LIMIT = 256 * 1024;
const BOUNDARY = 'admin-test-boundary';

/** `stream` as the request readAdminForm reads: only its headers and its body matter. */
function requestOf(stream: Readable, headers: Record<string, string>): IncomingMessage {
  return Object.assign(stream, { headers }) as unknown as IncomingMessage;
}

describe('readAdminForm', () => {
  for (const contentType of ['application/x-www-form-urlencoded', `multipart/form-data; boundary=${BOUNDARY}`, 'multipart/form-data', 'text/plain', undefined]) {
    it(`stops reading an endless ${contentType ?? 'untyped'} body at the limit`, async () => {
      const { stream, counter } = createEndlessBody();
      const outcome = await readAdminForm(requestOf(stream, contentType === undefined ? {} : { 'content-type': contentType }), LIMIT);
      assert.deepEqual(outcome, { ok: false, problem: 'too_large' });
      await letItRun();
      assert.ok(counter.produced <= mostPulledFor(stream, LIMIT, 16 * 1024), `read ${counter.produced} bytes for a limit of ${LIMIT}`);
      stream.destroy();
    });
  }

  it('judges a declared Content-Length before reading a byte', async () => {
    const { stream, counter } = createEndlessBody();
    stream.pause();
    const outcome = await readAdminForm(requestOf(stream, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(LIMIT + 1) }), LIMIT);
    assert.deepEqual(outcome, { ok: false, problem: 'too_large' });
    assert.equal(counter.produced, 0);
    stream.destroy();
  });

  it('keeps every value of a repeated field and the files of a multipart body', async () => {
    const body = [
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="tag"\r\n\r\none\r\n`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="tag"\r\n\r\ntwo\r\n`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n`,
      `--${BOUNDARY}--\r\n`,
    ].join('');
    const outcome = await readAdminForm(requestOf(Readable.from([Buffer.from(body)]), { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }), LIMIT);
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.form.fields.getAll('tag'), ['one', 'two']);
    assert.deepEqual(outcome.form.files, [{ field: 'image', fileName: 'a.png', declaredType: 'image/png', data: Buffer.from('PNG') }]);
  });

  it('reads an urlencoded body, and calls a body of another type invalid', async () => {
    const form = await readAdminForm(requestOf(Readable.from([Buffer.from('a=1&b=%C3%A9')]), { 'content-type': 'application/x-www-form-urlencoded' }), LIMIT);
    assert.ok(form.ok);
    assert.equal(form.form.fields.get('b'), 'é');
    const other = await readAdminForm(requestOf(Readable.from([Buffer.from('{}')]), { 'content-type': 'application/json' }), LIMIT);
    assert.deepEqual(other, { ok: false, problem: 'invalid' });
  });

  it('more fields than it takes is too large, within the byte limit', async () => {
    const body = Array.from({ length: 1001 }, (_, index) => `f${index}=x`).join('&');
    const outcome = await readAdminForm(requestOf(Readable.from([Buffer.from(body)]), { 'content-type': 'application/x-www-form-urlencoded' }), LIMIT);
    assert.deepEqual(outcome, { ok: false, problem: 'too_large' });
  });
});
