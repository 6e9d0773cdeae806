// The time of a log line, written by postbox itself for the logger and the request log alike.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { isoTimeAt } from '../src/log.js';

describe('isoTimeAt', () => {
  it('writes what pino\'s isoTime writes for the same moment, whatever came before', () => {
    // Moments from 1970 to 2100, often within the same second as the one before (the cached part).
    const moment = fc.integer({ min: 0, max: 4_102_444_800_000 });
    fc.assert(
      fc.property(fc.array(fc.tuple(moment, fc.integer({ min: -999, max: 999 })), { minLength: 1, maxLength: 20 }), (moments) => {
        for (const [base, step] of moments) {
          for (const ms of [base, Math.max(0, base + step)]) assert.equal(isoTimeAt(ms), `,"time":"${new Date(ms).toISOString()}"`);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
