import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCorsHeaders, isOriginAllowed } from '../../../src/forms/rules/cors.js';

const allowed = ['https://example.com', 'http://localhost:8080'] as const;

describe('isOriginAllowed', () => {
  const cases: Array<[string | undefined, boolean, string]> = [
    [undefined, true, 'absent Origin is a non-browser client (rule 1)'],
    ['https://example.com', true, 'listed origin'],
    ['http://localhost:8080', true, 'listed origin with port'],
    ['', false, 'present but empty'],
    ['null', false, 'opaque origin of sandboxed pages and file: URLs'],
    ['https://example.com/', false, 'trailing slash is not the same origin string'],
    ['https://EXAMPLE.com', false, 'exact match only, no case folding'],
    ['http://example.com', false, 'other scheme'],
    ['https://example.com:443', false, 'explicit default port is not how browsers serialize it'],
    ['https://evil-example.com', false, 'suffix lookalike'],
    ['https://example.com.evil.net', false, 'prefix lookalike'],
    ['http://localhost:8081', false, 'other port'],
    ['*', false, 'wildcard is never a match'],
    [' https://example.com', false, 'surrounding space'],
  ];
  for (const [origin, expected, why] of cases) {
    it(`${JSON.stringify(origin)} -> ${expected} (${why})`, () => {
      assert.equal(isOriginAllowed(origin, allowed), expected);
    });
  }

  it('an empty allow-list admits only requests without Origin', () => {
    assert.equal(isOriginAllowed(undefined, []), true);
    assert.equal(isOriginAllowed('https://example.com', []), false);
  });

  it('a "*" entry is not treated as a wildcard', () => {
    assert.equal(isOriginAllowed('https://anything.example', ['*']), false);
  });
});

describe('createCorsHeaders', () => {
  it('echoes the origin and names methods, headers and Vary exactly as the preflight answer', () => {
    assert.deepEqual(createCorsHeaders('https://example.com'), {
      'access-control-allow-origin': 'https://example.com',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
      vary: 'Origin',
    });
  });

  it('returns a fresh object each time so a caller may add to it', () => {
    const first = createCorsHeaders('https://a.example');
    first.extra = 'x';
    assert.equal('extra' in createCorsHeaders('https://a.example'), false);
  });
});
