// One webmention sent from the queue (src/comments/webmention/send-webmentions.ts postWebmention) over a fake fetch:
// a target without an endpoint leaves the queue unsent, and what the pages answer is a failure the queue retries
// (429, 5xx) or gives up (other 4xx), by src/queue/failure.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchedPage, FetchPage } from '../../src/comments/webmention/fetch-page.js';
import { postWebmention } from '../../src/comments/webmention/send-webmentions.js';
import { classifyFailure } from '../../src/queue/failure.js';

const WEBMENTION = { source: 'https://blog.example.com/blog/hello', target: 'https://site.example/note' };

/** A fetch answering the target with `target` and the endpoint's POST with `endpoint`; records the POSTs. */
function fakeFetch(target: Partial<FetchedPage>, endpoint: number, posted: Array<Record<string, string>>): FetchPage {
  return async (url, request) => {
    if (request?.form) {
      posted.push({ url, ...request.form });
      return { status: endpoint, url, contentType: undefined, links: [], body: '' };
    }
    return { status: 200, url, contentType: 'text/html', links: [], body: '', ...target };
  };
}

const withEndpoint = { links: ['</webmention>; rel="webmention"'] };

describe('a webmention sent from the queue', () => {
  it('posts source and target to the endpoint the target names', async () => {
    const posted: Array<Record<string, string>> = [];
    assert.equal(await postWebmention(fakeFetch(withEndpoint, 202, posted), WEBMENTION), undefined);
    assert.deepEqual(posted, [{ url: 'https://site.example/webmention', ...WEBMENTION }]);
  });

  it('leaves the queue unsent when the target names no endpoint', async () => {
    const posted: Array<Record<string, string>> = [];
    assert.equal(await postWebmention(fakeFetch({ body: '<p>nothing</p>' }, 202, posted), WEBMENTION), 'skipped');
    assert.deepEqual(posted, []);
  });

  for (const [what, target, endpoint, permanent] of [
    ['an endpoint answering 503', withEndpoint, 503, false],
    ['an endpoint answering 429', withEndpoint, 429, false],
    ['an endpoint answering 400', withEndpoint, 400, true],
    ['a target answering 502', { ...withEndpoint, status: 502 }, 202, false],
  ] as const) {
    it(`fails with ${what}, ${permanent ? 'given up' : 'retried'} by the queue`, async () => {
      const error = await postWebmention(fakeFetch(target, endpoint, []), WEBMENTION).then(
        () => assert.fail('it should have failed'),
        (failure: unknown) => failure,
      );
      assert.equal(classifyFailure(error).permanent, permanent);
    });
  }
});
