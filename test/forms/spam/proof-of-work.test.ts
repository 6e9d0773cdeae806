// Proof of work (docs/spam.md "Proof of work") on fake time: a solution of this form's challenge passes once, after
// min_seconds and before it expires; a forged, foreign, replayed, early or late one names its reason. Solved here
// with altcha-lib's own solver, as the widget does in a browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createProofOfWork, type ChallengeLedger, POW_COUNTER_MAX, POW_COUNTER_MIN } from '../../../src/forms/spam/proof-of-work.js';

const secrets = async () => ({ secret: 'challenge secret', keySecret: 'key secret' });
const T0 = Date.UTC(2024, 4, 1, 12);

function memoryLedger(): ChallengeLedger & { size(): number } {
  const used = new Set<string>();
  return {
    async useOnce(id) {
      if (used.has(id)) return false;
      used.add(id);
      return true;
    },
    size: () => used.size,
  };
}

function powFor(form: string, ledger = memoryLedger(), otherSecrets = secrets) {
  return createProofOfWork({ form, minSeconds: 3, expiresSeconds: 600, secrets: otherSecrets }, ledger);
}

async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution, 'solved');
  assert.ok(solution.counter >= POW_COUNTER_MIN && solution.counter <= POW_COUNTER_MAX, 'the work is within the bounds');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

test('a solution passes once after min_seconds; sent again it is replayed', async () => {
  const ledger = memoryLedger();
  const pow = powFor('/contact', ledger);
  const challenge = await pow.issue(T0);
  assert.equal(JSON.stringify(challenge).includes('challenge secret'), false);
  const value = await solve(challenge);
  assert.equal(await pow.check(value, T0 + 3_000), undefined);
  assert.equal(await pow.check(value, T0 + 4_000), 'replayed');
});

test('the time trap: sent before min_seconds is too_fast, and spends the challenge', async () => {
  const pow = powFor('/contact');
  const value = await solve(await pow.issue(T0));
  assert.equal(await pow.check(value, T0 + 2_999), 'too_fast');
  assert.equal(await pow.check(value, T0 + 10_000), 'replayed');
});

test('after challenge_expires_seconds the solution is expired', async () => {
  const pow = powFor('/contact');
  const value = await solve(await pow.issue(T0));
  assert.equal(await pow.check(value, T0 + 600_001), 'expired');
});

test('no solution, garbage, a wrong key, a moved issue time, another form, another secret: proof_of_work', async () => {
  const pow = powFor('/contact');
  const challenge = await pow.issue(T0);
  const value = await solve(challenge);
  const payload = JSON.parse(Buffer.from(value, 'base64').toString());
  for (const bad of [undefined, '', 'not base64 json', 42, Buffer.from('{"challenge":1}').toString('base64')]) {
    assert.equal(await pow.check(bad, T0 + 5_000), 'proof_of_work', String(bad));
  }
  const flipped = (payload.solution.derivedKey[0] === '0' ? '1' : '0') + payload.solution.derivedKey.slice(1);
  const wrongKey = Buffer.from(JSON.stringify({ ...payload, solution: { ...payload.solution, derivedKey: flipped } })).toString('base64');
  assert.equal(await pow.check(wrongKey, T0 + 5_000), 'proof_of_work', 'a key that is not the one the work finds');
  const tampered = Buffer.from(JSON.stringify({ ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, data: { ...payload.challenge.parameters.data, i: T0 - 60_000 } } } })).toString('base64');
  assert.equal(await pow.check(tampered, T0 + 1_000), 'proof_of_work', 'an issue time moved back breaks the signature');
  assert.equal(await powFor('/newsletter').check(value, T0 + 5_000), 'proof_of_work', 'a challenge of another form');
  assert.equal(await powFor('/contact', memoryLedger(), async () => ({ secret: 'other', keySecret: 'other' })).check(value, T0 + 5_000), 'proof_of_work');
  assert.equal(await pow.check(value, T0 + 5_000), undefined, 'the rejected attempts did not spend it');
});

test('a burst of the same solution passes exactly once', async () => {
  const pow = powFor('/contact');
  const value = await solve(await pow.issue(T0));
  const verdicts = await Promise.all(Array.from({ length: 20 }, () => pow.check(value, T0 + 5_000)));
  assert.equal(verdicts.filter((verdict) => verdict === undefined).length, 1);
  assert.equal(verdicts.filter((verdict) => verdict === 'replayed').length, 19);
});
