// Which coding Accept-Encoding picks (docs/blog.md "HTTP details"): brotli before gzip on a tie, quality values
// honoured, `*` for the codings not named, identity when nothing else is taken or the client ranks it first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preferredCoding } from '../../src/http/content-negotiation.js';

describe('preferredCoding', () => {
  const cases: Array<[string | undefined, 'br' | 'gzip' | undefined]> = [
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0 , gzip', 'gzip'],
    ['gzip;q=0, br', 'br'],
    ['br;q=0, gzip;q=0', undefined],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br;q=0.001', 'br'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *;q=0.5', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['identity;q=1, br;q=0.5', undefined],
    ['identity;q=0.5, br', 'br'],
    ['identity;q=0, gzip;q=0.2', 'gzip'],
    ['*;q=0.9, identity', undefined],
    // A malformed quality makes its entry say nothing: neither offer nor refusal.
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=1.5', undefined],
    ['br;q=0.5, br;q=0', 'br'],
    [' , ;q=1, gzip', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} -> ${expected ?? 'identity'}`, () => {
      assert.equal(preferredCoding(header), expected);
      // The memo answers the second time as the parser did the first.
      assert.equal(preferredCoding(header), expected);
    });
  }

  it('keeps answering right past the memo\'s size', () => {
    for (let index = 0; index < 200; index += 1) {
      const header = index % 2 === 0 ? `br;q=0.${100 + index}, gzip;q=0.1` : `br;q=0, x-${index}, gzip`;
      assert.equal(preferredCoding(header), index % 2 === 0 ? 'br' : 'gzip', header);
    }
  });
});
