// Mail header hygiene: free text flattened to one line, addresses with a line break refused
// (docs/forms-api.md "Delivery": no line break from input in a header).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSafeAddressValue, toHeaderText } from '../../src/kit/header-value.js';

describe('toHeaderText', () => {
  it('turns every run of control characters into one space', () => {
    assert.equal(toHeaderText(' a\r\n\tb\u0000c\u2029d '), 'a b c d');
  });
});

describe('isSafeAddressValue', () => {
  it('refuses any control character or line separator but the tab a quoted string may hold', () => {
    assert.equal(isSafeAddressValue('"a\tb"@example.org'), true);
    assert.equal(isSafeAddressValue('Forms <forms@example.com>'), true);
    for (const bad of ['a@example.org\r\nBcc: x@evil.example', 'a@example.org\n', 'a\u0000@example.org', 'a\u0085@example.org', 'a\u2028@example.org']) {
      assert.equal(isSafeAddressValue(bad), false, JSON.stringify(bad));
    }
  });
});
