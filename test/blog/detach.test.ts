import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { detach } from '../../src/blog/text/detach.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('detach: a substring that keeps nothing else alive', () => {
  it('keeps the text, lone surrogates and all', () => {
    for (const text of ['', 'short', 'a title longer than twelve', 'lone \ud800 and \udc00 surrogates, 😀']) assert.equal(detach(text), text);
  });

  it('lets the string it was cut from go', () => {
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const kept: string[] = [];
    // 100 texts of 1 MB (two-byte: 2 MB each), each with a 50-character piece kept.
    for (let index = 0; index < 100; index += 1) kept.push(detach(`${index}é`.padEnd(1_000_000, 'ab').slice(10, 60)));
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(kept.length, 100);
    assert.ok(grown < 20_000_000, `the heap grew by ${grown} bytes: the pieces keep their texts`);
  });
});
