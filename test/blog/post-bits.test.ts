// Sets of posts as bits (catalog/post-bits.ts) and the posting lists read into them (catalog/posting-lists.ts): what a
// query's terms match is counted, intersected and walked as these sets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addBit, bitPositions, countBits, emptyBits, fullBits, hasBit, intersectInto } from '../../src/blog/catalog/post-bits.js';
import { addListToBits, encodeAscending, listMeetsMarks } from '../../src/blog/catalog/posting-lists.js';

const ascending = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/** A count of positions and some positions below it, around the 32-bit edges. */
const positions = fc.integer({ min: 0, max: 200 }).chain((count) => fc.tuple(fc.constant(count), fc.array(fc.nat(Math.max(0, count - 1)), { maxLength: count === 0 ? 0 : 80 })));

describe('sets of posts as bits', () => {
  it('hold, count and give back in order the positions put in, from any one on and as many as asked', () => {
    fc.assert(
      fc.property(positions, fc.nat(100), fc.nat(100), ([count, values], skip, limit) => {
        const bits = emptyBits(count);
        for (const value of values) addBit(bits, value);
        const expected = ascending(values);
        assert.equal(countBits(bits), expected.length);
        assert.deepEqual(bitPositions(bits), expected);
        assert.deepEqual(bitPositions(bits, skip, limit), expected.slice(skip, skip + limit));
        for (let position = 0; position < count; position += 1) assert.equal(hasBit(bits, position), expected.includes(position));
      }),
    );
  });

  it('intersect, and a full set holds every position below its count and none past it', () => {
    fc.assert(
      fc.property(positions, fc.array(fc.nat(199), { maxLength: 80 }), ([count, values], others) => {
        const a = emptyBits(count);
        const b = emptyBits(count);
        for (const value of values) addBit(a, value);
        for (const value of others) if (value < count) addBit(b, value);
        const both = ascending(values).filter((value) => others.includes(value));
        assert.deepEqual(bitPositions(intersectInto(a, b)), both);
        assert.deepEqual(bitPositions(fullBits(count)), [...Array(count).keys()]);
        assert.equal(countBits(fullBits(count)), count);
      }),
    );
  });

  it('take a coded list\'s numbers, gaps of one to five bytes, and tell whether a list meets marked numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(300), fc.nat(70_000), fc.nat(2_000_000)), { maxLength: 100 }), fc.array(fc.nat(2_000_000), { maxLength: 5 }), (values, marked) => {
        const list = ascending(values);
        const bytes = encodeAscending(list);
        const bits = emptyBits(2_000_001);
        addBit(bits, 5);
        addListToBits(bits, bytes, 0, bytes.length);
        assert.deepEqual(bitPositions(bits), ascending([...list, 5]));
        const marks = new Uint8Array(2_000_001);
        for (const value of marked) marks[value] = 1;
        assert.equal(listMeetsMarks(bytes, 0, bytes.length, marks), list.some((value) => marked.includes(value)));
      }),
      { numRuns: 50 },
    );
  });
});
