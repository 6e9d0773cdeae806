// Hard or soft from what a provider passes on (src/bounces/webhooks/delivery-status.ts): the mailbox's rules
// (src/bounces/failure-rules.ts) judge whatever status, reply code or words there are; the provider's own word
// stands only when there is none of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enhancedStatusIn, failureKind, type FailureKind } from '../../../src/bounces/webhooks/delivery-status.js';

describe('enhancedStatusIn', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['smtp; 550 5.1.1 <a@example.org>: Recipient address rejected', '5.1.1'],
    ['550 5.1.10 RESOLVER.ADR.RecipientNotFound', '5.1.10'],
    ['452 4.2.2 Mailbox full.', '4.2.2'],
    ['5.7.1', '5.7.1'],
    ['relay 192.168.1.1 refused', undefined],
    ['no code here', undefined],
    [undefined, undefined],
  ];
  for (const [text, status] of cases) {
    it(`reads ${JSON.stringify(status)} in ${JSON.stringify(text)}`, () => assert.equal(enhancedStatusIn(text), status));
  }
});

describe('failureKind', () => {
  const cases: Array<[Parameters<typeof failureKind>[0], FailureKind, FailureKind]> = [
    [{ status: '5.1.1' }, 'soft', 'hard'],
    [{ status: '5.1.10' }, 'soft', 'hard'],
    [{ status: '5.1.8' }, 'hard', 'soft'],
    [{ status: '5.7.1', text: 'Message rejected as spam' }, 'hard', 'soft'],
    [{ status: '5.2.2', text: 'mailbox full' }, 'hard', 'soft'],
    [{ status: '4.4.7' }, 'hard', 'soft'],
    [{ status: '5.0.0', text: '550 User unknown' }, 'soft', 'hard'],
    [{ text: '550 5.1.1 no such user here' }, 'soft', 'hard'],
    [{ text: 'The email account that you tried to reach does not exist' }, 'soft', 'hard'],
    [{ code: 421, text: 'try again later' }, 'hard', 'soft'],
    // A bare permanent refusal proves nothing against the address: soft, whatever the provider thought.
    [{ code: 550, text: 'Requested action not taken: mailbox unavailable' }, 'hard', 'soft'],
    [{ status: '5.0.0' }, 'hard', 'soft'],
    // Nothing to judge: the provider's word.
    [{}, 'hard', 'hard'],
    [{ text: ' ' }, 'soft', 'soft'],
  ];
  for (const [input, fallback, kind] of cases) {
    it(`${JSON.stringify(input)} with fallback ${fallback} is ${kind}`, () => assert.equal(failureKind(input, fallback), kind));
  }
});
