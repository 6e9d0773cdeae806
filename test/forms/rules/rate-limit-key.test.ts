import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRateLimitKey } from '../../../src/forms/rules/rate-limit-key.js';

describe('createRateLimitKey', () => {
  const cases: Array<[string, number, string, string]> = [
    ['IPv4 is its own key', 64, '203.0.113.7', '203.0.113.7'],
    ['"unknown" stays "unknown"', 64, 'unknown', 'unknown'],
    ['an IPv6 address keys its /64', 64, '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another address of the same /64, same key', 64, '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['the neighbouring /64 below', 64, '2001:db8:1:1:ffff:ffff:ffff:ffff', '2001:db8:1:1::/64'],
    ['the neighbouring /64 above', 64, '2001:db8:1:3::', '2001:db8:1:3::/64'],
    ['full spelling, upper case', 64, '2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['zeros compressed elsewhere', 64, '2001:db8:1:2:0:0:0:1', '2001:db8:1:2::/64'],
    ['a network with inner zero groups', 64, '2001:db8:0:0:1::1', '2001:db8::/64'],
    ['/48 keeps three groups', 48, '2001:db8:1:2::1', '2001:db8:1::/48'],
    ['/48: another /64 of the same /48', 48, '2001:db8:1:ffff::1', '2001:db8:1::/48'],
    ['/48: the next /48', 48, '2001:db8:2::1', '2001:db8:2::/48'],
    ['/56 cuts inside a group', 56, '2001:db8:1:2ff::1', '2001:db8:1:200::/56'],
    ['/128 is the address itself', 128, '2001:DB8:1:2:0:0:0:1', '2001:db8:1:2::1'],
    ['loopback', 64, '::1', '::/64'],
    ['IPv4-mapped is the IPv4 address', 64, '::ffff:203.0.113.7', '203.0.113.7'],
    ['IPv4-mapped in hex', 48, '::ffff:cb00:7107', '203.0.113.7'],
    ['a zone index is dropped', 64, 'fe80::1%eth0', 'fe80::/64'],
    ['not an address: returned as it is', 64, 'not:an:address', 'not:an:address'],
  ];
  for (const [why, prefix, address, expected] of cases) {
    it(`${why}: /${prefix} ${address} -> ${expected}`, () => {
      assert.equal(createRateLimitKey(prefix)(address), expected);
    });
  }

  it('gives every spelling of one /64 the same key', () => {
    const keyOf = createRateLimitKey(64);
    const spellings = ['2001:db8:a:b::5', '2001:db8:a:b:0::5', '2001:0db8:000a:000b:0000:0000:0000:0005', '2001:DB8:A:B:0:0:0:5', '2001:db8:a:b:ffff::'];
    assert.deepEqual(new Set(spellings.map(keyOf)), new Set(['2001:db8:a:b::/64']));
  });

  for (const prefix of [-1, 129, 64.5]) {
    it(`refuses a /${prefix} prefix`, () => {
      assert.throws(() => createRateLimitKey(prefix), RangeError);
    });
  }
});
