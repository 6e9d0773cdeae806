import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createBucketTable } from '../../../src/forms/rules/bucket-table.js';

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
});
