import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLru } from '../../src/blog/http/lru.js';
import { createResponseFactory, matchesIfNoneMatch } from '../../src/blog/http/prepared-response.js';
import { escapeXml } from '../../src/blog/feeds/xml.js';

describe('If-None-Match (RFC 9110 section 13.1.2)', () => {
  const etag = '"abc"';
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
    ['', false],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)}: ${expected}`, () => assert.equal(matchesIfNoneMatch(header, etag), expected));
  }
});

describe('prepared responses', () => {
  it('give equal bytes equal ETags and different bytes different ones, with Cache-Control from cache_max_age', () => {
    const respond = createResponseFactory(300);
    const a = respond.content('{"a":1}', 'application/json; charset=utf-8');
    const b = respond.content('{"a":1}', 'application/json; charset=utf-8');
    const c = respond.content('{"a":2}', 'application/json; charset=utf-8');
    assert.equal(a.etag, b.etag);
    assert.notEqual(a.etag, c.etag);
    assert.match(a.etag!, /^"[A-Za-z0-9_-]+"$/);
    const headers = (answer: { headers: unknown }) => {
      const list = answer.headers as string[];
      return Object.fromEntries(list.flatMap((value, index) => (index % 2 === 0 ? [[value, list[index + 1]]] : [])));
    };
    assert.equal(headers(a.answer)['cache-control'], 'public, max-age=300');
    assert.equal(headers(a.answer)['content-length'], '7');
    assert.equal(headers(a.notModified).etag, a.etag);
    assert.equal(a.notModified.status, 304);
  });
});

describe('createLru', () => {
  it('keeps at most its capacity, dropping the least recently used', () => {
    const lru = createLru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1); // a is now the most recent
    lru.set('c', 3);
    assert.equal(lru.size, 2);
    assert.equal(lru.get('b'), undefined);
    assert.equal(lru.get('a'), 1);
    assert.equal(lru.get('c'), 3);
  });
});

describe('escapeXml', () => {
  it('escapes markup characters and removes characters XML 1.0 forbids', () => {
    assert.equal(escapeXml(`<a href="x">&'</a>`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
    assert.equal(escapeXml('a\u0000b\u0008c\u000bd\ufffee\ud800f\tg\nh😀'), 'abcdef\tg\nh😀');
  });
});
