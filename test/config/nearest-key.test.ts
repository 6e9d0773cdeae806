// The "did you mean" of an unknown key: typing mistakes find their key, unrelated words find none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance, nearestKey } from '../../src/config/nearest-key.js';

const SERVER_KEYS = ['listen', 'public_url', 'max_body_bytes', 'trust_proxy_headers', 'rate_limit_ipv6_prefix', 'metrics_token'];
const FORM_KEYS = ['path', 'type', 'to', 'allowed_origins', 'honeypot_field', 'rate_limit_per_hour', 'redirect_url', 'archive', 'name_min', 'name_max'];

describe('editDistance', () => {
  const cases: Array<[string, string, number]> = [
    ['', '', 0],
    ['', 'abc', 3],
    ['listen', 'listen', 0],
    ['listne', 'listen', 1], // two neighbours swapped
    ['huor', 'hour', 1],
    ['trust_proxy_header', 'trust_proxy_headers', 1],
    ['smtp', 'smpt', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: no edit of a swapped pair
  ];
  for (const [a, b, distance] of cases) {
    it(`${JSON.stringify(a)} -> ${JSON.stringify(b)}: ${distance}`, () => {
      assert.equal(editDistance(a, b), distance);
      assert.equal(editDistance(b, a), distance);
    });
  }
});

describe('nearestKey', () => {
  const cases: Array<[string, readonly string[], string | undefined]> = [
    ['trust_proxy_header', SERVER_KEYS, 'trust_proxy_headers'],
    ['Listen', SERVER_KEYS, 'listen'],
    ['metric_token', SERVER_KEYS, 'metrics_token'],
    ['max_body_size', SERVER_KEYS, undefined], // four edits from max_body_bytes: a guess, not a typo
    ['rate_limit_per_huor', FORM_KEYS, 'rate_limit_per_hour'],
    ['redirect', FORM_KEYS, undefined],
    ['tpye', FORM_KEYS, 'type'],
    ['too', FORM_KEYS, 'to'],
    ['name_mx', FORM_KEYS, 'name_max'], // one edit from name_max, two from name_min
    ['x', FORM_KEYS, undefined],
    ['anything', [], undefined],
  ];
  for (const [unknown, known, expected] of cases) {
    it(`${unknown} -> ${String(expected)}`, () => assert.equal(nearestKey(unknown, known), expected));
  }
});
