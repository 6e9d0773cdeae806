// Posting lists laid out in one byte array (compressed sparse rows), the form both `q` indexes keep them in: a
// few large arrays instead of one small array per key. A list is ascending, so it is kept as the gaps between
// its numbers, seven bits a byte (the high bit says another byte follows): most gaps of a common word's or
// gram's list take one byte, and a list takes a third to a quarter of what 32-bit numbers would.
import type { StepDue } from './step-clock.js';

/** The items holding key k, as ascending positions, coded as gaps in bytes[offsets[k] .. offsets[k + 1]). */
export interface PostingLists {
  offsets: Uint32Array;
  bytes: Uint8Array;
}

/** Bytes `gap` (1 to 2^31) takes. */
function gapBytes(gap: number): number {
  return gap < 0x80 ? 1 : gap < 0x4000 ? 2 : gap < 0x200000 ? 3 : gap < 0x10000000 ? 4 : 5;
}

/** Writes `gap` (1 to 2^31) at `at`; returns where it ends. */
function putGap(bytes: Uint8Array, at: number, gap: number): number {
  let rest = gap;
  while (rest >= 0x80) {
    bytes[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  bytes[at++] = rest;
  return at;
}

/** Bytes the gaps of `values` (ascending, distinct) take. */
function listSize(values: ArrayLike<number>): number {
  let size = 0;
  for (let at = 0, last = -1; at < values.length; last = values[at]!, at += 1) size += gapBytes(values[at]! - last);
  return size;
}

/** Writes the gaps of `values` at `at`; returns where they end. */
function putList(bytes: Uint8Array, at: number, values: ArrayLike<number>): number {
  let end = at;
  for (let index = 0, last = -1; index < values.length; last = values[index]!, index += 1) end = putGap(bytes, end, values[index]! - last);
  return end;
}

/** `values`, ascending, distinct and below 2^31 (positions and numbers of words and grams), as gaps: a list of its own size. */
export function encodeAscending(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(listSize(values));
  putList(bytes, 0, values);
  return bytes;
}

/** Where the gap readGap read last ends: a second result, without an object per gap. */
let gapEnd = 0;

/** The gap that starts at `bytes[at]`; gapEnd is set to where it ends. */
function readGap(bytes: Uint8Array, at: number): number {
  let next = at;
  let byte = bytes[next++]!;
  let gap = byte & 0x7f;
  for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
    byte = bytes[next++]!;
    gap += (byte & 0x7f) * scale;
  }
  gapEnd = next;
  return gap;
}

/**
 * The bits of `masks[n]`, or-ed, for the numbers n coded in `bytes[start, end)`, read in order until the bits hold
 * all of `all`. A mask of 0 is not worked out yet: `fill(n)` works it out (never 0), keeps it and returns it.
 */
export function orOfMasks(bytes: Uint8Array, start: number, end: number, masks: Uint8Array, all: number, fill: (value: number) => number): number {
  let bits = 0;
  for (let at = start, value = -1; at < end && (bits & all) !== all; at = gapEnd) {
    value += readGap(bytes, at);
    const mask = masks[value]!;
    bits |= mask === 0 ? fill(value) : mask;
  }
  return bits & all;
}

/** Whether `test` holds for a number of the gaps in `bytes[start, end)`, read in order until it does. */
export function someInList(bytes: Uint8Array, start: number, end: number, test: (value: number) => boolean): boolean {
  for (let at = start, value = -1; at < end; at = gapEnd) {
    value += readGap(bytes, at);
    if (test(value)) return true;
  }
  return false;
}

/**
 * Sets bit n of `bits` (a bit per number, 32 to an element: post-bits.ts) for each number n coded in
 * `bytes[start, end)`. The gaps are read in place, one byte at a time: the loop a common word's query spends its
 * time in (tens of thousands of numbers at 100,000 posts), without a call per number.
 */
export function addListToBits(bits: Uint32Array, bytes: Uint8Array, start: number, end: number): void {
  let value = -1;
  for (let at = start; at < end; ) {
    let byte = bytes[at++]!;
    if (byte < 0x80) value += byte;
    else {
      let gap = byte & 0x7f;
      for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
        byte = bytes[at++]!;
        gap += (byte & 0x7f) * scale;
      }
      value += gap;
    }
    bits[value >>> 5]! |= 1 << (value & 31);
  }
}

/** Whether a number coded in `bytes[start, end)` is marked (1) in `marks`, read in order until one is. */
export function listMeetsMarks(bytes: Uint8Array, start: number, end: number, marks: Uint8Array): boolean {
  let value = -1;
  for (let at = start; at < end; ) {
    let byte = bytes[at++]!;
    if (byte < 0x80) value += byte;
    else {
      let gap = byte & 0x7f;
      for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
        byte = bytes[at++]!;
        gap += (byte & 0x7f) * scale;
      }
      value += gap;
    }
    if (marks[value] === 1) return true;
  }
  return false;
}

/**
 * Whether `bytes[start, end)` is a list as encodeAscending codes it of numbers below `limit`: every gap whole within
 * the range and at most five bytes (what a list read from a file must be before it is used).
 */
export function isListBelow(bytes: Uint8Array, start: number, end: number, limit: number): boolean {
  let value = -1;
  for (let at = start; at < end; ) {
    let gap = 0;
    let scale = 1;
    for (let length = 0; ; length += 1) {
      if (at === end || length === 5) return false;
      const byte = bytes[at++]!;
      gap += (byte & 0x7f) * scale;
      scale *= 0x80;
      if (byte < 0x80) break;
    }
    value += gap;
    if (gap === 0 || value >= limit) return false;
  }
  return true;
}

/**
 * Decodes the gaps in `bytes[start, end)` into `into` (or a larger array when it is too small); returns the array
 * written and how many numbers it holds.
 */
export function decodeInto(bytes: Uint8Array, start: number, end: number, into: Uint32Array): { values: Uint32Array; count: number } {
  // Sized for the most numbers the bytes can hold: no check per number (layOutPostingsSteps decodes every list twice).
  const values = into.length >= end - start ? into : new Uint32Array(Math.max(end - start, into.length * 2));
  let count = 0;
  for (let at = start, value = -1; at < end; at = gapEnd) {
    value += readGap(bytes, at);
    values[count++] = value;
  }
  return { values, count };
}

/** Decodes the keys of item `position` into `into` (as decodeInto). */
export type KeysOf = (position: number, into: Uint32Array) => { values: Uint32Array; count: number };

/**
 * Inverts the key lists of `items` items (the distinct keys, below `keyCount`, of each item by position) by a
 * counting sort, pausing in each of its two passes whenever `due()` says so (step-clock.ts), asked every 32 items.
 */
export function* layOutPostingsSteps(items: number, keysOf: KeysOf, keyCount: number, due: StepDue): Generator<void, PostingLists> {
  const offsets = new Uint32Array(keyCount + 1);
  // Each key's last position so far, then where its list is written up to.
  const last = new Int32Array(keyCount).fill(-1);
  let keys: Uint32Array = new Uint32Array(256);
  for (let position = 0; position < items; position += 1) {
    const decoded = keysOf(position, keys);
    keys = decoded.values;
    for (let index = 0; index < decoded.count; index += 1) {
      const key = keys[index]!;
      offsets[key + 1]! += gapBytes(position - last[key]!);
      last[key] = position;
    }
    if ((position & 31) === 31 && due()) yield;
  }
  for (let key = 0; key < keyCount; key += 1) offsets[key + 1]! += offsets[key]!;
  const bytes = new Uint8Array(offsets[keyCount]!);
  const cursor = offsets.slice(0, keyCount);
  last.fill(-1);
  for (let position = 0; position < items; position += 1) {
    const decoded = keysOf(position, keys);
    keys = decoded.values;
    for (let index = 0; index < decoded.count; index += 1) {
      const key = keys[index]!;
      cursor[key] = putGap(bytes, cursor[key]!, position - last[key]!);
      last[key] = position;
    }
    if ((position & 31) === 31 && due()) yield;
  }
  return { offsets, bytes };
}

/** The bytes of `key`'s list: how much work reading it is (one to five bytes a number). */
export function listBytes(lists: PostingLists, key: number): number {
  return lists.offsets[key + 1]! - lists.offsets[key]!;
}

/** The list of `key`, decoded into `into` (see decodeInto). */
export function postingsOf(lists: PostingLists, key: number, into: Uint32Array): { values: Uint32Array; count: number } {
  return decodeInto(lists.bytes, lists.offsets[key]!, lists.offsets[key + 1]!, into);
}
