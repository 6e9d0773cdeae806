// The retry schedule and the temporary/permanent split (src/queue/retry-policy.ts, src/queue/failure.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyFailure, scrubReply } from '../../src/queue/failure.js';
import { nextAttemptAt, retryPolicyOf } from '../../src/queue/retry-policy.js';

const HOUR = 3_600_000;

describe('nextAttemptAt', () => {
  const policy = retryPolicyOf(72);
  it('starts at a minute and doubles up to an hour apart', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((attempts) => (nextAttemptAt(policy, attempts, 0, 1000, 0.5) as number) - 1000);
    assert.deepEqual(delays, [60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
  });
  it('spreads retries by at most ten per cent either way', () => {
    assert.equal(nextAttemptAt(policy, 1, 0, 0, 0), 54_000);
    assert.equal(nextAttemptAt(policy, 1, 0, 0, 0.999999), 66_000);
  });
  it('tries a last time at the deadline, then gives up', () => {
    assert.equal(nextAttemptAt(policy, 10, 0, 72 * HOUR - 10_000, 0.5), 72 * HOUR);
    assert.equal(nextAttemptAt(policy, 11, 0, 72 * HOUR, 0.5), undefined);
  });
});

describe('classifyFailure', () => {
  const cases: Array<[string, unknown, boolean, string]> = [
    ['SMTP 421 (service closing)', { responseCode: 421 }, false, 'smtp_421'],
    ['SMTP 451 (try again later)', { responseCode: 451 }, false, 'smtp_451'],
    ['SMTP 550 (no such mailbox)', { responseCode: 550 }, true, 'smtp_550'],
    ['SMTP 535 (authentication failed)', { responseCode: 535, code: 'EAUTH' }, true, 'smtp_535'],
    ['connection refused', { code: 'ECONNREFUSED' }, false, 'ECONNREFUSED'],
    ['nodemailer connection error', { code: 'ECONNECTION' }, false, 'ECONNECTION'],
    ['HTTP 429', { reason: 'http_429' }, false, 'http_429'],
    ['HTTP 503', { reason: 'http_503' }, false, 'http_503'],
    ['HTTP 404', { reason: 'http_404' }, true, 'http_404'],
    ['HTTP 401', { reason: 'http_401' }, true, 'http_401'],
    ['a time-out', { reason: 'timeout' }, false, 'timeout'],
    ['a header refused before sending', { code: 'EUNSAFEHEADER' }, true, 'EUNSAFEHEADER'],
    ['a form that lost its channel', { code: 'ENOCHANNEL' }, true, 'ENOCHANNEL'],
    ['something unknown', new TypeError('x'), false, 'TypeError'],
  ];
  for (const [name, error, permanent, reason] of cases) {
    it(`${name}: ${permanent ? 'permanent' : 'temporary'}`, () => {
      assert.deepEqual(classifyFailure(error), { permanent, reason });
    });
  }
  it('keeps the SMTP reply, without the addresses in it', () => {
    const failure = classifyFailure({ responseCode: 550, response: '550 5.1.1 <ada@example.org>: Recipient address rejected: User unknown in virtual mailbox table (bob@example.com)' });
    assert.equal(failure.reply, '550 5.1.1 <address>: Recipient address rejected: User unknown in virtual mailbox table (<address>)');
  });
  it('puts a reply on one line', () => {
    assert.equal(scrubReply('421 4.7.0 first\r\n421 second'), '421 4.7.0 first 421 second');
  });
});
