// /openapi.json and /metrics go through the service's one Accept-Encoding negotiation (docs/forms-api.md
// "Compression"): brotli or gzip for a client that takes it, plain otherwise, `Vary: Accept-Encoding` either way,
// and the document's ETag tagged per coding so that a 304 answers the form the client holds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { contactForm, useTestFormsService } from '../../support/forms-app.js';

const startService = useTestFormsService();

describe('compressed /openapi.json and /metrics', () => {
  it('sends /openapi.json in the preferred coding, the same document, with an ETag per coding', async () => {
    const forms = await startService({ forms: [contactForm()] });
    const plain = await forms.app.inject({ url: '/openapi.json' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');

    const br = await forms.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 3, `${br.rawPayload.length} bytes for ${plain.rawPayload.length}`);
    assert.equal(brotliDecompressSync(br.rawPayload).toString('utf8'), plain.body);
    assert.equal(br.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-br"`);

    const gzip = await forms.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString('utf8'), plain.body);

    const again = await forms.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    assert.equal(again.statusCode, 304);
    // The plain form's tag does not name the brotli form: the client gets the whole of what it asked for.
    const other = await forms.app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) } });
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['content-encoding'], 'br');
  });

  it('sends the Prometheus text of /metrics gzipped to a scraper that takes it, and plain to one that does not', async () => {
    const forms = await startService({ forms: [contactForm()] });
    const plain = await forms.app.inject({ url: '/metrics?format=prometheus' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const gzip = await forms.app.inject({ url: '/metrics?format=prometheus', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.statusCode, 200);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.headers['cache-control'], 'no-store');
    assert.match(gunzipSync(gzip.rawPayload).toString('utf8'), /^# HELP /m);
  });
});
