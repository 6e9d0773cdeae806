// `Authorization: Bearer` checking for /metrics (docs/forms-api.md "/metrics").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBearerTokenValid } from '../../src/http/bearer-token.js';

describe('isBearerTokenValid', () => {
  const cases: Array<[string | undefined, boolean]> = [
    ['Bearer t0ken', true],
    ['bearer t0ken', true],
    ['BEARER  t0ken ', true],
    ['Bearer t0ke', false],
    ['Bearer t0kenX', false],
    ['Bearer', false],
    ['Bearer ', false],
    ['Basic t0ken', false],
    ['t0ken', false],
    [undefined, false],
    ['Bearer t0ken extra', false],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} -> ${expected}`, () => assert.equal(isBearerTokenValid(header, 't0ken'), expected));
  }
});
