import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRateLimitKey, IPV4_KIND, keyText, packKey, type PackedKey } from '../../../src/forms/rules/rate-limit-key.js';

/** The packed form of `text`, or undefined when it stays text. */
function packed(text: string): PackedKey | undefined {
  const into: PackedKey = { kind: -1, high: -1, low: -1 };
  return packKey(text, into) ? into : undefined;
}

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

describe('packKey and keyText', () => {
  it('packs an IPv4 address into its 32 bits', () => {
    assert.deepEqual(packed('203.0.113.7'), { kind: IPV4_KIND, high: 0, low: 0xcb007107 });
    assert.deepEqual(packed('255.255.255.255'), { kind: IPV4_KIND, high: 0, low: 0xffffffff });
    assert.deepEqual(packed('0.0.0.0'), { kind: IPV4_KIND, high: 0, low: 0 });
  });

  it('packs an IPv6 network of at most 64 bits into those bits, with its prefix in the kind', () => {
    const network = packed('2001:db8:1:2::/64');
    assert.equal(network?.high, 0x20010db8);
    assert.equal(network?.low, 0x00010002);
    const wider = packed('2001:db8:1::/48');
    assert.equal(wider?.high, 0x20010db8);
    assert.equal(wider?.low, 0x00010000);
    assert.notEqual(wider?.kind, packed('2001:db8:1::/64')?.kind, 'the same bits under another prefix are another key');
    assert.notEqual(packed('::/64')?.kind, IPV4_KIND, 'the zero network is not the IPv4 address 0.0.0.0');
  });

  const text: Array<[string, string]> = [
    ['an /128 address (the network is the address)', '2001:db8:1:2::1'],
    ['a network longer than 64 bits', '2001:db8:1:2:3::/80'],
    ['"unknown"', 'unknown'],
    ['an IPv4 octet with a leading zero', '203.0.113.07'],
    ['an IPv4 octet past 255', '203.0.113.256'],
    ['three octets', '203.0.113'],
    ['five octets', '203.0.113.7.1'],
    ['an empty octet', '203..113.7'],
    ['a port', '203.0.113.7:80'],
    ['upper case hex', '2001:DB8:1:2::/64'],
    ['a group with a leading zero', '2001:0db8:1:2::/64'],
    ['the zero run written out', '2001:db8:1:2:0:0:0:0/64'],
    ['a single zero group compressed', '2001:db8:0:1:1:1:1::/64'],
    ['the shorter zero run compressed', '2001::1:0:0:0:0/64'],
    ['a zero group written out beside "::"', '2001:db8:1:0::/64'],
    ['"::" twice', '2001::1::/64'],
    ['a bit past the prefix', '2001:db8:1:2::/48'],
    ['a host part', '2001:db8:1:2:0:0:0:1/64'],
    ['a prefix with a leading zero', '2001:db8:1:2::/064'],
    ['no prefix digits', '2001:db8:1:2::/'],
    ['nine groups', '1:2:3:4:5:6:7:8:9/64'],
    ['seven groups without "::"', '1:2:3:4:5:6:7/64'],
    ['a trailing single colon', '2001:db8:1:2:/64'],
    ['a leading single colon', ':2001:db8:1:2::/64'],
    ['a group of five digits', '2001:db8:1:12345::/64'],
    ['a dotted IPv4 tail', '::ffff:1.2.3.4/64'],
    ['a zone index', 'fe80::%eth0/64'],
  ];
  for (const [why, key] of text) {
    it(`keeps ${why} as text: ${key}`, () => {
      assert.equal(packed(key), undefined);
    });
  }

  it('packs every IPv4 key and spells it back exactly', () => {
    const keyOf = createRateLimitKey(64);
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const key = keyOf(address);
        const into = packed(key);
        assert.ok(into, key);
        assert.equal(keyText(into.kind, into.high, into.low), key);
      }),
      { numRuns: 500 },
    );
  });

  it('packs every IPv6 key of a prefix up to /64 and spells it back exactly', () => {
    // Addresses as groups, biased to zeros so that compressed runs of every length and place come up.
    const group = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff }));
    const spelled = fc.oneof(
      fc.ipV6(),
      fc.array(group, { minLength: 8, maxLength: 8 }).map((groups) => groups.map((value) => value.toString(16)).join(':')),
    );
    fc.assert(
      fc.property(spelled, fc.integer({ min: 0, max: 64 }), (address, prefix) => {
        const key = createRateLimitKey(prefix)(address);
        const into = packed(key);
        assert.ok(into, `${address} /${prefix} -> ${key}`);
        assert.equal(keyText(into.kind, into.high, into.low), key);
      }),
      { numRuns: 2000 },
    );
  });

  it('whatever text packs spells back exactly, so two texts never share a packed key', () => {
    const near = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:./'), maxLength: 45 }),
      // Keys the service makes, then bent by one character: the spellings most likely to be mistaken for them.
      fc
        .tuple(fc.ipV6(), fc.integer({ min: 0, max: 70 }), fc.nat(), fc.constantFrom(...'0:./f1'))
        .map(([address, prefix, at, character]) => {
          const key = createRateLimitKey(Math.min(prefix, 128))(address);
          const where = at % (key.length + 1);
          return key.slice(0, where) + character + key.slice(where);
        }),
    );
    fc.assert(
      fc.property(near, (key) => {
        const into = packed(key);
        if (into) assert.equal(keyText(into.kind, into.high, into.low), key);
      }),
      { numRuns: 5000 },
    );
  });
});
