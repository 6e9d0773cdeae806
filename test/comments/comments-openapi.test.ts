// The comment routes answer as the blog listener's /openapi.json describes them (docs/openapi.md): every answer of a
// run through the API (each status it can give) is checked against the document the service itself serves.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createAnswerChecker, type OpenApiDocument } from '../openapi/openapi-check.js';
import type { InjectedResponse } from '../support/http.js';
import { SITE_ORIGIN, startCommentsApp, type CommentsApp } from './comments-app.js';

describe('the comment routes and their document', () => {
  let app: CommentsApp | undefined;
  after(async () => app?.close());

  it('answers only what the document describes', async () => {
    app = await startCommentsApp({ moderation: 'first', rate_limit_per_hour: 5, spam: { proof_of_work: true } });
    const document = (await app.service.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    const checker = createAnswerChecker(document);
    const seen: InjectedResponse[] = [];
    const check = (method: string, url: string, answer: InjectedResponse) => {
      seen.push(answer);
      assert.deepEqual(checker.problems({ method, url, status: answer.statusCode, headers: answer.headers, body: answer.body }), [], `${method} ${url} ${answer.statusCode}`);
    };
    const inject = async (method: 'GET' | 'HEAD' | 'POST' | 'OPTIONS', url: string, headers: Record<string, string> = {}, payload?: string) => {
      const answer = await app!.service.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
      check(method, url, answer);
      return answer;
    };
    const json = { 'content-type': 'application/json', origin: SITE_ORIGIN };
    const url = '/api/blog/posts/hello/comments';
    assert.deepEqual(checker.requestProblems('post', url, 'application/json', { name: 'Ada', text: 'Hi', parent: 'a1', altcha: 'x' }), []);

    const first = await inject('GET', url);
    await inject('GET', url, { 'if-none-match': String(first.headers.etag) });
    await inject('HEAD', url);
    await inject('GET', '/api/blog/posts/nope/comments');
    await inject('OPTIONS', url, { origin: SITE_ORIGIN, 'access-control-request-method': 'POST' });
    await inject('OPTIONS', '/api/blog/comments/challenge', { origin: SITE_ORIGIN });
    await inject('GET', '/api/blog/comments/challenge', { origin: SITE_ORIGIN });
    await inject('POST', url, json, JSON.stringify({ name: 'Ada', text: 'Hi' }));
    await inject('POST', url, json, JSON.stringify({ name: '', text: '' }));
    await inject('POST', url, json, '{not json');
    await inject('POST', url, { ...json, origin: 'https://evil.example' }, JSON.stringify({ name: 'Ada', text: 'Hi' }));
    await inject('POST', '/api/blog/posts/quiet/comments', json, JSON.stringify({ name: 'Ada', text: 'Hi' }));
    await inject(
      'POST',
      url,
      { 'content-type': 'application/x-www-form-urlencoded', origin: SITE_ORIGIN, referer: `${SITE_ORIGIN}/blog/hello` },
      new URLSearchParams({ name: 'Ada', text: 'From a form' }).toString(),
    );
    await inject('POST', url, json, JSON.stringify({ name: 'Ada', text: 'x'.repeat(70_000) }));
    // The sixth POST that counted: over the limit of five.
    await inject('POST', url, json, JSON.stringify({ name: 'Ada', text: 'over the limit' }));
    assert.deepEqual([...new Set(seen.map((answer) => answer.statusCode))].sort(), [200, 202, 204, 303, 304, 400, 403, 404, 413, 429]);
  });
});
