import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeInto, encodeAscending, isListBelow, layOutPostingsSteps, postingsOf, someInList } from '../../src/blog/catalog/posting-lists.js';

const ascending = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
const decoded = (bytes: Uint8Array) => {
  const { values, count } = decodeInto(bytes, 0, bytes.length, new Uint32Array(1));
  return [...values.subarray(0, count)];
};

describe('posting lists coded as gaps', () => {
  it('give back every number of an ascending list, of any size below 2^31', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(300), fc.nat(70_000), fc.nat(2 ** 31 - 1)), { maxLength: 200 }), (values) => {
        const list = ascending(values);
        assert.deepEqual(decoded(encodeAscending(list)), list);
      }),
    );
  });

  it('take one byte a gap below 128, and more only for larger gaps (the first number counts from -1)', () => {
    assert.equal(encodeAscending([0, 1, 2, 127]).length, 4);
    assert.equal(encodeAscending([126]).length, 1);
    assert.equal(encodeAscending([127]).length, 2);
    assert.equal(encodeAscending([2 ** 31 - 1]).length, 5);
  });

  it('are read in order until the test holds', () => {
    const seen: number[] = [];
    const bytes = encodeAscending([3, 200, 70_000, 80_000]);
    assert.equal(someInList(bytes, 0, bytes.length, (value) => (seen.push(value), value === 70_000)), true);
    assert.deepEqual(seen, [3, 200, 70_000]);
    assert.equal(someInList(bytes, 0, bytes.length, () => false), false);
  });

  it('lay out the inverse of the items\' key lists', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(400), { maxLength: 30 }), { maxLength: 1500 }), fc.integer({ min: 1, max: 50 }), (items, perStep) => {
        const keyCount = 401;
        // Each item's keys encoded as a list, read back into the caller's buffer as the index's items are.
        const encoded = items.map((keys) => encodeAscending(ascending(keys)));
        const keysOf = (position: number, into: Uint32Array) => decodeInto(encoded[position]!, 0, encoded[position]!.length, into);
        // A pause every `perStep` items, wherever it falls in the passes.
        let calls = 0;
        const steps = layOutPostingsSteps(items.length, keysOf, keyCount, () => ++calls % perStep === 0);
        let step = steps.next();
        let pauses = 0;
        while (!step.done) {
          pauses += 1;
          step = steps.next();
        }
        assert.equal(pauses, Math.floor(calls / perStep));
        for (let key = 0; key < keyCount; key += 1) {
          const expected = items.flatMap((keys, position) => (keys.includes(key) ? [position] : []));
          const { values, count } = postingsOf(step.value, key, new Uint32Array(4));
          assert.deepEqual([...values.subarray(0, count)], expected);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('are told apart from bytes that are not such a list below a bound', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(2 ** 31 - 1), { maxLength: 50 }), (values) => {
        const list = ascending(values);
        const bytes = encodeAscending(list);
        const limit = list.length === 0 ? 0 : list[list.length - 1]! + 1;
        assert.equal(isListBelow(bytes, 0, bytes.length, limit), true);
        if (list.length > 0) assert.equal(isListBelow(bytes, 0, bytes.length, limit - 1), false, 'a number at the bound');
      }),
    );
    assert.equal(isListBelow(Uint8Array.of(0x81, 0x01), 0, 1, 1000), false, 'a gap running past the end');
    assert.equal(isListBelow(Uint8Array.of(0x81, 0x01), 0, 2, 1000), true);
    assert.equal(isListBelow(Uint8Array.of(5, 0), 0, 2, 1000), false, 'a gap of 0: a number twice');
    assert.equal(isListBelow(Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01), 0, 6, 2 ** 40), false, 'a gap of six bytes');
  });
});
