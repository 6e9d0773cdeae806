import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createBucketTable } from '../../../src/forms/rules/bucket-table.js';
import { createRateLimitKey } from '../../../src/forms/rules/rate-limit-key.js';

const networkOf = createRateLimitKey(64);

describe('createBucketTable', () => {
  it('keeps last-update order: an update moves the key to the newest end', () => {
    const table = createBucketTable();
    table.set('a', 1);
    table.set('b', 2);
    table.set('c', 3);
    table.set('a', 4);
    assert.deepEqual(table.entries(), [['b', 2], ['c', 3], ['a', 4]]);
    assert.equal(table.oldestValue(), 2);
    table.deleteOldest();
    assert.deepEqual(table.entries(), [['c', 3], ['a', 4]]);
    assert.equal(table.get('b'), undefined);
    assert.equal(table.size(), 2);
  });

  it('an empty table has no oldest entry and ignores deleteOldest', () => {
    const table = createBucketTable();
    assert.equal(table.oldestValue(), undefined);
    table.deleteOldest();
    assert.equal(table.size(), 0);
    assert.deepEqual(table.entries(), []);
  });

  it('keeps packed keys (IPv4, IPv6 networks) and text keys apart, and gives each back as it was set', () => {
    const table = createBucketTable();
    const keys = ['0.0.0.0', '::/64', '::/0', '0.0.0.0/64', 'unknown', '2001:db8::/64', '2001:db8::/48', '2001:db8::1', '32.1.13.184'];
    keys.forEach((key, index) => table.set(key, index));
    assert.equal(table.size(), keys.length);
    assert.deepEqual(table.entries(), keys.map((key, index) => [key, index]));
    keys.forEach((key, index) => assert.equal(table.get(key), index, key));
    assert.equal(table.get('2001:db8::/56'), undefined);
    assert.equal(table.get('0.0.0.1'), undefined);
  });

  it('behaves like an insertion-ordered Map through growth, reuse of slots and shrinking', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 300 }), value: fc.double({ noNaN: true }) }),
      fc.record({ kind: fc.constant('drop' as const), count: fc.integer({ min: 1, max: 200 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const table = createBucketTable();
        const model = new Map<string, number>();
        for (const step of operations) {
          if (step.kind === 'set') {
            const key = `k${step.key}`;
            model.delete(key);
            model.set(key, step.value);
            table.set(key, step.value);
          } else {
            for (let index = 0; index < step.count; index += 1) {
              const oldest = model.keys().next();
              assert.equal(table.oldestValue(), oldest.done ? undefined : model.get(oldest.value));
              if (!oldest.done) model.delete(oldest.value);
              table.deleteOldest();
            }
          }
          assert.equal(table.size(), model.size);
        }
        assert.deepEqual(table.entries(), [...model.entries()]);
        for (const [key, value] of model) assert.equal(table.get(key), value);
      }),
      { numRuns: 300 },
    );
  });

  it('behaves like an insertion-ordered Map with keys of every kind, through growth, hash collisions, reuse of slots and shrinking', () => {
    // Keys repeat, neighbours differ in one bit and kinds share bits; a table around 64 entries is half full, so
    // probe runs are long and keys removed from the middle of them are common.
    const key = (spread: number) =>
      fc.oneof(
        fc.tuple(fc.integer({ min: 0, max: spread }), fc.integer({ min: 0, max: 30 })).map(([a, b]) => `10.${a}.0.${b}`),
        fc.tuple(fc.integer({ min: 0, max: spread }), fc.integer({ min: 0, max: 30 })).map(([a, b]) => networkOf(`${a.toString(16)}:0:0:${b.toString(16)}::1`)),
        fc.integer({ min: 0, max: 20 }).map((b) => `2001:db8:${b.toString(16)}::/48`),
        fc.constantFrom('unknown', '2001:db8::1', '10.0.0.01'),
      );
    const operation = (spread: number, most: number) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), key: key(spread), value: fc.double({ noNaN: true }) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), count: fc.integer({ min: 1, max: most }) }) },
      );
    const runs = fc.oneof(fc.array(operation(0, 4), { maxLength: 600, size: 'max' }), fc.array(operation(3, 150), { maxLength: 600, size: 'max' }));
    fc.assert(
      fc.property(runs, (operations) => {
        const table = createBucketTable();
        const model = new Map<string, number>();
        for (const step of operations) {
          if (step.kind === 'set') {
            model.delete(step.key);
            model.set(step.key, step.value);
            table.set(step.key, step.value);
          } else {
            for (let index = 0; index < step.count; index += 1) {
              const oldest = model.keys().next();
              assert.equal(table.oldestValue(), oldest.done ? undefined : model.get(oldest.value));
              if (!oldest.done) model.delete(oldest.value);
              table.deleteOldest();
            }
          }
          assert.equal(table.size(), model.size);
        }
        assert.deepEqual(table.entries(), [...model.entries()]);
        for (const [entry, value] of model) assert.equal(table.get(entry), value);
      }),
      { numRuns: 100 },
    );
  });

  it('stays a Map through long churn: thousands of updates and drops, probe runs wrapping past the end of the hash', () => {
    // Each run is a seeded sequence of 5,000 steps over up to 700 keys, long enough to reach what short runs
    // rarely do: a key removed from a probe run that wrapped round to the start of the hash array.
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 5 }), (seed, spread) => {
        let state = seed >>> 0;
        const random = (below: number) => {
          state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          return Math.floor((state / 2 ** 32) * below);
        };
        const table = createBucketTable();
        const model = new Map<string, number>();
        for (let step = 0; step < 5000; step += 1) {
          if (random(10) < 3) {
            for (let count = 1 + random(random(10) === 0 ? 100 : 3); count > 0; count -= 1) {
              const oldest = model.keys().next();
              if (!oldest.done) model.delete(oldest.value);
              table.deleteOldest();
            }
          } else {
            const key = random(2) === 0 ? `10.0.${random(spread + 1)}.${random(60)}` : networkOf(`${random(spread + 1).toString(16)}:0:0:${random(60).toString(16)}::1`);
            model.delete(key);
            model.set(key, step);
            table.set(key, step);
          }
          assert.equal(table.size(), model.size);
          if (step % 100 === 0) for (const [key, value] of model) assert.equal(table.get(key), value, key);
        }
        assert.deepEqual(table.entries(), [...model.entries()]);
      }),
      { numRuns: 20 },
    );
  });
});
