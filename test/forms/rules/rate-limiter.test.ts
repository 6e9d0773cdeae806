import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createRateLimitKey } from '../../../src/forms/rules/rate-limit-key.js';
import {
  createRateLimiter,
  decodeRateLimitFile,
  encodeRateLimitFile,
  type RateLimiter,
  type RateLimiterSnapshot,
  type TakeResult,
} from '../../../src/forms/rules/rate-limiter.js';

const SECOND = 1000;
const HOUR = 3_600_000;
const allowed: TakeResult = { allowed: true };
const denied = (retryAfterSeconds: number): TakeResult => ({ allowed: false, retryAfterSeconds });

/** Takes `count` tokens at one instant and asserts they were all allowed. */
function drain(limiter: RateLimiter, key: string, count: number, nowMs: number): void {
  for (let index = 0; index < count; index += 1) {
    assert.deepEqual(limiter.take(key, nowMs), allowed, `take ${index + 1} of ${count} for ${key}`);
  }
}

describe('createRateLimiter: token bucket', () => {
  it('a new key starts with a full bucket of perHour tokens, then waits for one token', () => {
    const limiter = createRateLimiter(10);
    drain(limiter, '203.0.113.1', 10, 0);
    assert.deepEqual(limiter.take('203.0.113.1', 0), denied(360));
  });

  it('keys are independent', () => {
    const limiter = createRateLimiter(2);
    drain(limiter, 'a', 2, 0);
    assert.deepEqual(limiter.take('a', 0), denied(1800));
    drain(limiter, 'b', 2, 0);
  });

  // perHour = 10: one token every 360 s.
  const steps: Array<[string, number, TakeResult]> = [
    ['1 ms before the token is back: round up to 1 s', 360 * SECOND - 1, denied(1)],
    ['half a token back: 180 s to go', 180 * SECOND, denied(180)],
    ['0.5 s before the token: 1 s', 359.5 * SECOND, denied(1)],
    ['1.001 s before the token: 2 s', 358.999 * SECOND, denied(2)],
    ['exactly one interval: allowed', 360 * SECOND, allowed],
  ];
  for (const [why, at, expected] of steps) {
    it(`refills continuously: ${why}`, () => {
      const limiter = createRateLimiter(10);
      drain(limiter, 'k', 10, 0);
      assert.deepEqual(limiter.take('k', at), expected);
    });
  }

  it('keeps fractional tokens: 1.5 tokens allow one take and leave half a token', () => {
    const limiter = createRateLimiter(10);
    drain(limiter, 'k', 10, 0);
    assert.deepEqual(limiter.take('k', 540 * SECOND), allowed);
    assert.deepEqual(limiter.take('k', 540 * SECOND), denied(180));
    assert.deepEqual(limiter.take('k', 719 * SECOND), denied(1));
    assert.deepEqual(limiter.take('k', 720 * SECOND), allowed);
  });

  it('a denied take costs nothing', () => {
    const limiter = createRateLimiter(10);
    drain(limiter, 'k', 10, 0);
    for (let second = 1; second < 360; second += 1) assert.equal(limiter.take('k', second * SECOND).allowed, false);
    assert.deepEqual(limiter.take('k', 360 * SECOND), allowed);
  });

  it('never refills past perHour tokens', () => {
    const limiter = createRateLimiter(3);
    drain(limiter, 'k', 3, 0);
    drain(limiter, 'k', 3, 10 * HOUR);
    assert.deepEqual(limiter.take('k', 10 * HOUR), denied(1200));
  });

  it('rounds retry-after up for intervals that are not whole seconds (7 per hour: 514.29 s)', () => {
    const limiter = createRateLimiter(7);
    drain(limiter, 'k', 7, 0);
    assert.deepEqual(limiter.take('k', 0), denied(515));
    assert.deepEqual(limiter.take('k', 514 * SECOND), denied(1));
    assert.deepEqual(limiter.take('k', 514_285), denied(1));
    assert.deepEqual(limiter.take('k', 514_286), allowed);
    // Seven intervals are exactly one hour: the bucket is full again after it, with no rounding drift.
    const again = createRateLimiter(7);
    drain(again, 'k', 7, 0);
    drain(again, 'k', 7, HOUR);
    assert.deepEqual(again.take('k', HOUR), denied(515));
  });

  it('handles one token per second and one per hour', () => {
    const fast = createRateLimiter(3600);
    drain(fast, 'k', 3600, 0);
    assert.deepEqual(fast.take('k', 0), denied(1));
    assert.deepEqual(fast.take('k', 999), denied(1));
    assert.deepEqual(fast.take('k', 1000), allowed);

    const slow = createRateLimiter(1);
    assert.deepEqual(slow.take('k', 0), allowed);
    assert.deepEqual(slow.take('k', 0), denied(3600));
    assert.deepEqual(slow.take('k', HOUR - 1), denied(1));
    assert.deepEqual(slow.take('k', HOUR), allowed);
  });

  it('works with absolute epoch times', () => {
    const start = Date.UTC(2030, 0, 1);
    const limiter = createRateLimiter(10);
    drain(limiter, 'k', 10, start);
    assert.deepEqual(limiter.take('k', start + 100 * SECOND), denied(260));
    assert.deepEqual(limiter.take('k', start + 360 * SECOND), allowed);
  });

  it('a clock that steps back counts as no time passing', () => {
    const limiter = createRateLimiter(10);
    drain(limiter, 'k', 10, 1000 * SECOND);
    assert.deepEqual(limiter.take('k', 0), denied(360));
    assert.deepEqual(limiter.take('k', 1359 * SECOND), denied(1));
    assert.deepEqual(limiter.take('k', 1360 * SECOND), allowed);
  });

  it('rejects a non-positive or non-finite perHour', () => {
    for (const perHour of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => createRateLimiter(perHour), RangeError, String(perHour));
    }
  });
});

describe('createRateLimiter: bounded memory', () => {
  it('drops buckets that have refilled completely, on the next take', () => {
    const limiter = createRateLimiter(10);
    for (let index = 0; index < 1000; index += 1) limiter.take(`10.0.${index >> 8}.${index & 255}`, 0);
    assert.equal(limiter.size(), 1000);
    limiter.take('other', 360 * SECOND - 1);
    assert.equal(limiter.size(), 1001, 'one token short of full: still tracked');
    limiter.take('other', 360 * SECOND);
    assert.equal(limiter.size(), 1, 'the 1000 full buckets are gone; only "other" remains');
  });

  it('keeps live buckets while dropping full ones', () => {
    const limiter = createRateLimiter(10);
    for (let index = 0; index < 100; index += 1) limiter.take(`light-${index}`, 0); // full again at 360 s
    drain(limiter, 'heavy', 10, 0); // full again at 3600 s
    limiter.take('probe', 400 * SECOND);
    assert.equal(limiter.size(), 2, 'heavy and probe remain');
    // heavy kept its state: one token back after 360 s, the second only at 720 s.
    assert.deepEqual(limiter.take('heavy', 400 * SECOND), allowed);
    assert.deepEqual(limiter.take('heavy', 400 * SECOND), denied(320));
  });

  it('a recently used bucket moves behind older ones', () => {
    const limiter = createRateLimiter(2);
    limiter.take('a', 0); // full at 1800 s
    limiter.take('b', 0); // full at 1800 s
    drain(limiter, 'a', 1, 1000 * SECOND); // a: 1.56 tokens, one taken; now the most recent
    limiter.take('c', 1800 * SECOND); // b is full and oldest: dropped; a is not full
    assert.equal(limiter.size(), 2);
    assert.equal(limiter.toSnapshot(1800 * SECOND).buckets.map(([key]) => key).join(','), 'a,c');
  });

  it('200,000 distinct addresses are tracked, then dropped an hour later', () => {
    const limiter = createRateLimiter(10);
    for (let index = 0; index < 200_000; index += 1) {
      assert.equal(limiter.take(`198.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`, index).allowed, true);
    }
    assert.equal(limiter.size(), 200_000);
    limiter.take('late', 200_000 + 360 * SECOND);
    assert.equal(limiter.size(), 1);
    // Capacity shrank back with the drop: the limiter still works from a small table.
    for (let index = 0; index < 1000; index += 1) limiter.take(`k${index}`, HOUR);
    assert.equal(limiter.size(), 1000, '"late" is full by then and dropped too');
  });

  it('keeps IPv4 addresses and IPv6 networks in under 100 bytes each, and text keys cut out of larger strings under 300', () => {
    // Memory is only comparable after forced collections, so this runs in a process of its own; it counts the
    // heap and the typed arrays' buffers, which live outside it. Each text key is a slice of a 400-character
    // "header": if the limiter kept slices, the parents would stay alive with them and push that figure past 400.
    const moduleUrl = new URL('../../../src/forms/rules/rate-limiter.ts', import.meta.url).href;
    const keyModuleUrl = new URL('../../../src/forms/rules/rate-limit-key.ts', import.meta.url).href;
    const script = `
      const { createRateLimiter } = await import(${JSON.stringify(moduleUrl)});
      const keyOf = (await import(${JSON.stringify(keyModuleUrl)})).createRateLimitKey(64);
      const used = () => {
        globalThis.gc();
        const usage = process.memoryUsage();
        return usage.heapUsed + usage.arrayBuffers;
      };
      const padding = ', ' + 'x'.repeat(400);
      const kinds = {
        ipv4: (index) => keyOf('10.' + (index >>> 16) + '.' + ((index >>> 8) & 255) + '.' + (index & 255)),
        ipv6: (index) => keyOf('2001:db8:' + (index >>> 16).toString(16) + ':' + (index & 0xffff).toString(16) + ':1a2b:3c4d:5e6f:7'),
        sliced: (index) => {
          const header = '2001:db8:0:' + index.toString(16) + padding;
          return header.slice(0, header.indexOf(','));
        },
      };
      const figures = {};
      for (const [kind, keyAt] of Object.entries(kinds)) {
        const limiter = createRateLimiter(10);
        const before = used();
        for (let index = 0; index < 100000; index += 1) limiter.take(keyAt(index), index);
        figures[kind] = { size: limiter.size(), bytesPerEntry: (used() - before) / limiter.size() };
      }
      console.log(JSON.stringify(figures));
    `;
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(result.status, 0, result.stderr);
    const figures = JSON.parse(result.stdout) as Record<'ipv4' | 'ipv6' | 'sliced', { bytesPerEntry: number; size: number }>;
    for (const [kind, limit] of [['ipv4', 100], ['ipv6', 100], ['sliced', 300]] as const) {
      assert.equal(figures[kind].size, 100_000, kind);
      assert.ok(figures[kind].bytesPerEntry < limit, `${kind}: ${figures[kind].bytesPerEntry.toFixed(0)} bytes per address`);
    }
  });
});

describe('createRateLimiter: keys', () => {
  it('IPv4 addresses and IPv6 networks keep one bucket per key text, shared with no other key', () => {
    // The reference gives every key text a limiter of its own, so no two texts can share a bucket there; the
    // limiter under test keeps them all, IPv4 and IPv6 networks packed into numbers.
    const address = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `198.51.${a}.${b}`),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffff }))
        .map(([site, network, host]) => `2001:db8:${site}:${network}::${host.toString(16)}`),
      fc.constantFrom('unknown', '::ffff:198.51.0.1', '0.0.0.0', '::', '::1', '2001:db8::/64', '2001:db8:0:0:0:0:0:1'),
      fc.ipV4(),
      fc.ipV6(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(48, 56, 64, 128),
        fc.array(fc.tuple(address, fc.integer({ min: 0, max: 300 * SECOND })), { maxLength: 300, size: 'max' }),
        (prefix, steps) => {
          const keyOf = createRateLimitKey(prefix);
          const shared = createRateLimiter(3, undefined, 0);
          const alone = new Map<string, RateLimiter>();
          let now = 0;
          for (const [client, gap] of steps) {
            now += gap;
            const key = keyOf(client);
            let own = alone.get(key);
            if (!own) alone.set(key, (own = createRateLimiter(3, undefined, 0)));
            assert.deepEqual(shared.take(key, now), own.take(key, now), `${client} as ${key} at ${now} ms`);
          }
          const expected = [...alone.values()].flatMap((limiter) => limiter.toSnapshot(now).buckets);
          assert.deepEqual(shared.toSnapshot(now).buckets.sort(), expected.sort());
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('createRateLimiter: snapshot', () => {
  function exercised(): RateLimiter {
    const limiter = createRateLimiter(10);
    drain(limiter, 'empty', 10, 0);
    drain(limiter, 'one-used', 1, 0);
    drain(limiter, 'half', 5, 0);
    return limiter;
  }

  it('holds only non-full buckets, as [key, tokens] at the snapshot time, oldest first', () => {
    const limiter = exercised();
    assert.deepEqual(limiter.toSnapshot(0), {
      takenAtMs: 0,
      buckets: [['empty', 0], ['one-used', 9], ['half', 5]],
    });
    assert.deepEqual(limiter.toSnapshot(180 * SECOND).buckets, [['empty', 0.5], ['one-used', 9.5], ['half', 5.5]]);
    assert.deepEqual(limiter.toSnapshot(360 * SECOND).buckets, [['empty', 1], ['half', 6]]);
  });

  it('round-trips through the file codec with refill for the downtime', () => {
    const limiter = exercised();
    const text = encodeRateLimitFile(360 * SECOND, { '/contact': limiter.toSnapshot(360 * SECOND) });
    const decoded = decodeRateLimitFile(text);
    assert.ok(decoded);
    assert.equal(decoded.savedAtMs, 360 * SECOND);
    // Down for 30 minutes: five tokens each. "half" (6 + 5) is full and dropped; "empty" has 1 + 5.
    const restored = createRateLimiter(10, decoded.perForm['/contact'], 2160 * SECOND);
    assert.equal(restored.size(), 1);
    drain(restored, 'empty', 6, 2160 * SECOND);
    assert.deepEqual(restored.take('empty', 2160 * SECOND), denied(360));
    drain(restored, 'half', 10, 2160 * SECOND);
  });

  it('without a restart time it restores the state as it was', () => {
    const restored = createRateLimiter(10, exercised().toSnapshot(0));
    assert.equal(restored.size(), 3);
    assert.deepEqual(restored.take('empty', 0), denied(360));
    drain(restored, 'half', 5, 0);
    assert.deepEqual(restored.take('half', 0), denied(360));
  });

  it('restores exactly at token boundaries (no rounding drift from the tokens in the file)', () => {
    const limiter = createRateLimiter(7);
    drain(limiter, 'k', 7, 0);
    const decoded = decodeRateLimitFile(encodeRateLimitFile(1, { '/f': limiter.toSnapshot(100_000) }));
    const restored = createRateLimiter(7, decoded?.perForm['/f'], 200_000);
    assert.deepEqual(restored.take('k', 514_285), denied(1));
    assert.deepEqual(restored.take('k', 514_286), allowed);
  });

  it('a restart time before the snapshot time counts as no downtime', () => {
    const restored = createRateLimiter(10, exercised().toSnapshot(100 * SECOND), 0);
    assert.deepEqual(restored.take('empty', 0), denied(260));
  });

  it('clamps to a lowered perHour and drops buckets that are full under it', () => {
    const restored = createRateLimiter(5, exercised().toSnapshot(0), 0);
    assert.equal(restored.size(), 1, 'one-used (9 of 5) and half (5 of 5) are full and dropped');
    drain(restored, 'half', 5, 0);
    assert.deepEqual(restored.take('empty', 0), denied(720));
  });

  it('ignores malformed snapshot content, entry by entry', () => {
    const garbage: unknown[] = [
      null,
      42,
      'text',
      [],
      { buckets: [['a', 0]] },
      { takenAtMs: 'soon', buckets: [['a', 0]] },
      { takenAtMs: 0, buckets: { a: 0 } },
    ];
    for (const snapshot of garbage) {
      const limiter = createRateLimiter(10, snapshot as RateLimiterSnapshot, 0);
      assert.equal(limiter.size(), 0, JSON.stringify(snapshot));
      drain(limiter, 'a', 10, 0);
    }
    const mixed = {
      takenAtMs: 0,
      buckets: [['good', 0], ['nan', Number.NaN], [7, 0], ['short'], ['neg', -1], ['str', '0'], 'x', null, ['long', 0, 1]],
    };
    const limiter = createRateLimiter(10, mixed as unknown as RateLimiterSnapshot, 0);
    assert.equal(limiter.size(), 1);
    assert.deepEqual(limiter.take('good', 0), denied(360));
  });
});

describe('rate-limit snapshot file codec', () => {
  it('encodes one JSON document naming its version', () => {
    const text = encodeRateLimitFile(5, { '/a': { takenAtMs: 5, buckets: [['1.2.3.4', 2.5]] } });
    assert.deepEqual(JSON.parse(text), { version: 1, savedAtMs: 5, forms: { '/a': { takenAtMs: 5, buckets: [['1.2.3.4', 2.5]] } } });
    assert.deepEqual(decodeRateLimitFile(text), {
      savedAtMs: 5,
      perForm: { '/a': { takenAtMs: 5, buckets: [['1.2.3.4', 2.5]] } },
    });
  });

  const corrupt: Array<[string, string]> = [
    ['empty file', ''],
    ['truncated', encodeRateLimitFile(1, { '/a': { takenAtMs: 1, buckets: [['k', 1]] } }).slice(0, 30)],
    ['not JSON', 'hello'],
    ['JSON array', '[]'],
    ['JSON null', 'null'],
    ['other version', '{"version":2,"savedAtMs":1,"forms":{}}'],
    ['no version', '{"savedAtMs":1,"forms":{}}'],
    ['savedAtMs not a number', '{"version":1,"savedAtMs":"1","forms":{}}'],
    ['forms missing', '{"version":1,"savedAtMs":1}'],
    ['forms an array', '{"version":1,"savedAtMs":1,"forms":[]}'],
  ];
  for (const [why, text] of corrupt) {
    it(`decodes ${why} as undefined`, () => {
      assert.equal(decodeRateLimitFile(text), undefined);
    });
  }

  it('drops forms whose snapshot frame is broken and keeps the others', () => {
    const text = '{"version":1,"savedAtMs":1,"forms":{"/bad":{"buckets":[]},"/worse":3,"/ok":{"takenAtMs":1,"buckets":[]}}}';
    assert.deepEqual(decodeRateLimitFile(text)?.perForm, { '/ok': { takenAtMs: 1, buckets: [] } });
  });

  it('keeps a "__proto__" form key as plain data', () => {
    const text = '{"version":1,"savedAtMs":1,"forms":{"__proto__":{"takenAtMs":1,"buckets":[]}}}';
    const perForm = decodeRateLimitFile(text)?.perForm;
    assert.ok(perForm);
    assert.equal(Object.getPrototypeOf(perForm), Object.prototype);
    assert.deepEqual(Object.keys(perForm), ['__proto__']);
  });
});
