// CSV fields of the exports (src/kit/csv.ts): RFC 4180 quoting and defused formulas.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvField } from '../../src/kit/csv.js';

describe('csvField', () => {
  const cases: Array<[string, string]> = [
    ['ada@example.org', 'ada@example.org'],
    ['"quoted, local"@example.org', '"""quoted, local""@example.org"'],
    ['=cmd@example.org', "'=cmd@example.org"],
    ['+tag@example.org', "'+tag@example.org"],
    ['-x@example.org', "'-x@example.org"],
    ['@handle', "'@handle"],
    ['\tx@example.org', "'\tx@example.org"],
    ['\rx@example.org', `"'\rx@example.org"`],
  ];
  for (const [value, expected] of cases) it(JSON.stringify(value), () => assert.equal(csvField(value), expected));
});
