// The route table's lookup (src/http/route-table.ts): exact paths, then prefixes longest first, and a prefix route
// with a suffix, which takes only the paths that end with it after something of their own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRouteLookup, type Route } from '../../src/http/route-table.js';

const answer = (name: string) => () => ({ status: 200, headers: {}, body: name });

const routes: Route[] = [
  { path: '/api/blog/posts/', prefix: true, methods: { GET: answer('detail') } },
  { path: '/api/blog/posts/', prefix: true, suffix: '/comments', methods: { GET: answer('comments'), POST: answer('send') } },
  { path: '/api/blog/posts', methods: { GET: answer('list') } },
];

function nameOf(method: string, path: string): string | undefined {
  const match = createRouteLookup(routes)(method, path);
  if (match?.handler === undefined) return match?.allow === undefined ? undefined : `allow ${match.allow}`;
  return String((match.handler as ReturnType<typeof answer>)().body);
}

describe('the route table', () => {
  it('sends a path with the suffix to the suffix route, and the rest to the plain prefix', () => {
    assert.equal(nameOf('GET', '/api/blog/posts/hello/comments'), 'comments');
    assert.equal(nameOf('POST', '/api/blog/posts/hello/comments'), 'send');
    assert.equal(nameOf('GET', '/api/blog/posts/hello'), 'detail');
    assert.equal(nameOf('GET', '/api/blog/posts'), 'list');
  });

  it('needs something between the prefix and the suffix: a post named "comments" is a post', () => {
    assert.equal(nameOf('GET', '/api/blog/posts/comments'), 'detail');
    assert.equal(nameOf('GET', '/api/blog/posts//comments'), 'detail', 'an empty slug');
    assert.equal(nameOf('GET', '/api/blog/posts/x/comments'), 'comments');
  });

  it('answers the methods of the suffix route only, and names its pattern for the metrics', () => {
    assert.equal(nameOf('DELETE', '/api/blog/posts/hello/comments'), 'allow GET, POST');
    assert.equal(createRouteLookup(routes)('GET', '/api/blog/posts/hello/comments')?.route, '/api/blog/posts/*/comments');
  });
});
