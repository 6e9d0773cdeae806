// The small GET behind SNS certificates and subscription confirmations (src/adapters/notify/fetch-text.ts): the
// body of a 2xx answer, and a failure with a reason safe to log for anything else: another status (a redirect
// included: none is followed), a body over the limit, a network failure, a time-out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTextFetcher, FetchTextError } from '../../../src/adapters/notify/fetch-text.js';

/** A fetch answering `response`, recording what it was asked. */
function fakeFetch(response: () => Response | Promise<Response>) {
  const asked: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    asked.push({ url: String(input), init });
    return response();
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const rejectsWith = (promise: Promise<unknown>, reason: string) => assert.rejects(promise, (error: unknown) => error instanceof FetchTextError && error.reason === reason);

describe('createTextFetcher', () => {
  it('resolves with the body of a 2xx answer to a GET that follows no redirect', async () => {
    const { fetch, asked } = fakeFetch(() => new Response('-----BEGIN CERTIFICATE-----'));
    assert.equal(await createTextFetcher({ fetch })('https://sns.eu-west-1.amazonaws.com/x.pem'), '-----BEGIN CERTIFICATE-----');
    assert.equal(asked[0]?.init?.method, 'GET');
    assert.equal(asked[0]?.init?.redirect, 'manual');
  });

  it('rejects another status, a redirect included', async () => {
    await rejectsWith(createTextFetcher({ fetch: fakeFetch(() => new Response('no', { status: 404 })).fetch })('https://a.example/'), 'http_404');
    await rejectsWith(createTextFetcher({ fetch: fakeFetch(() => new Response(null, { status: 302, headers: { location: 'https://evil.example/' } })).fetch })('https://a.example/'), 'http_302');
  });

  it('rejects a body over the limit', async () => {
    await rejectsWith(createTextFetcher({ fetch: fakeFetch(() => new Response('x'.repeat(101))).fetch, maxBytes: 100 })('https://a.example/'), 'too_large');
    assert.equal(await createTextFetcher({ fetch: fakeFetch(() => new Response('x'.repeat(100))).fetch, maxBytes: 100 })('https://a.example/'), 'x'.repeat(100));
  });

  it('rejects a network failure and a time-out', async () => {
    await rejectsWith(createTextFetcher({ fetch: fakeFetch(() => Promise.reject(new TypeError('fetch failed'))).fetch })('https://a.example/'), 'network');
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    await rejectsWith(createTextFetcher({ fetch: fakeFetch(() => Promise.reject(timeout)).fetch })('https://a.example/'), 'timeout');
  });
});
