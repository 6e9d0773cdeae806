// When a campaign pauses itself (src/newsletter/campaigns/campaign-pause.ts, docs/bounces.md "Suppression"): more
// than 0.3 % complaints or 5 % hard bounces of the mails sent, counted only once 100 were sent, from the start or
// the last resume; a rate exactly at the bound goes on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pauseReasonOf } from '../../src/newsletter/campaigns/campaign-pause.js';

const START = { sent: 0, hard: 0, complaint: 0 };

describe('the pause rule', () => {
  it('never pauses before 100 mails were sent, however bad the rates', () => {
    assert.equal(pauseReasonOf({ sent: 99, hard: 99, complaint: 99 }, START), undefined);
  });

  it('pauses past 5 % hard bounces, not at 5 %', () => {
    assert.equal(pauseReasonOf({ sent: 100, hard: 5, complaint: 0 }, START), undefined);
    assert.match(pauseReasonOf({ sent: 100, hard: 6, complaint: 0 }, START)!, /^6 hard bounces for 100 mails sent \(6 %, more than 5 %\)$/);
    assert.equal(pauseReasonOf({ sent: 1000, hard: 50, complaint: 0 }, START), undefined);
    assert.ok(pauseReasonOf({ sent: 1000, hard: 51, complaint: 0 }, START));
  });

  it('pauses past 0.3 % complaints, not at 0.3 %', () => {
    assert.equal(pauseReasonOf({ sent: 1000, hard: 0, complaint: 3 }, START), undefined);
    assert.match(pauseReasonOf({ sent: 1000, hard: 0, complaint: 4 }, START)!, /^4 complaints for 1000 mails sent \(0\.4 %, more than 0\.3 %\)$/);
    assert.match(pauseReasonOf({ sent: 100, hard: 0, complaint: 1 }, START)!, /^1 complaint for 100 mails sent/);
  });

  it('counts from the last resume only', () => {
    const resumed = { sent: 150, hard: 12, complaint: 0 };
    assert.equal(pauseReasonOf({ sent: 240, hard: 30, complaint: 0 }, resumed), undefined, '90 sent since: not counted yet');
    assert.equal(pauseReasonOf({ sent: 250, hard: 17, complaint: 0 }, resumed), undefined, '5 of 100 since');
    assert.ok(pauseReasonOf({ sent: 250, hard: 18, complaint: 0 }, resumed), '6 of 100 since');
  });
});
