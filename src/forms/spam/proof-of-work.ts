// Proof of work with ALTCHA (docs/spam.md "Proof of work"): `GET <form>/challenge` issues a signed challenge, the
// visitor's browser finds a counter whose SHA-256 key starts with the challenge's prefix, and the submission carries
// the solution in its `altcha` field. Verifying costs the server one HMAC and a few hashes whatever the visitor sends,
// so checking anonymous solutions never slows the forms.
//
// The challenge carries its own facts, signed: the form it is for, when it was issued (the time trap) and when it
// expires. They are checked here with the service's clock, not the library's, so that tests run on fake time.
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { SpamReason } from './spam-reasons.js';

/**
 * The work asked of a browser: finding the counter, drawn between these two, whose SHA-256 key the challenge names
 * by its first half (ALTCHA's deterministic mode). The solver counts up from 0, so it hashes at least
 * `POW_COUNTER_MIN` times and never more than `POW_COUNTER_MAX`: the cost varies by a factor of two, not the tenfold
 * of a random prefix. docs/performance.md "Proof of work" gives what it costs a browser and a bot.
 */
export const POW_ALGORITHM = 'SHA-256';
export const POW_COST = 1;
export const POW_COUNTER_MIN = 100_000;
export const POW_COUNTER_MAX = 200_000;

/** Remembers which challenges were used, across replicas (the state store). */
export interface ChallengeLedger {
  /**
   * Records that challenge `id` has been used; false when it already was. Atomic: of two concurrent calls with one
   * id, exactly one gets true. Kept at least until `expiresAt` (ms), after which the challenge is refused anyway.
   */
  useOnce(id: string, expiresAt: number): Promise<boolean>;
}

export interface ProofOfWorkSettings {
  /** The form's path: a challenge is good for the form it was issued for only. */
  form: string;
  minSeconds: number;
  expiresSeconds: number;
  /**
   * The HMAC keys, the same on every replica: `secret` signs the challenges, `keySecret` the expected keys (the fast
   * check: one HMAC instead of a hash). Asked for when first needed: the state store may come up after the service.
   */
  secrets(): Promise<PowSecrets>;
}

export interface ProofOfWork {
  /** A new challenge, as the widget reads it. */
  issue(now: number): Promise<Challenge>;
  /** Why the submitted `altcha` value does not pass, or undefined when it does (and it is now used). */
  check(value: unknown, now: number): Promise<SpamReason | undefined>;
}

export interface PowSecrets {
  secret: string;
  keySecret: string;
}

interface ChallengeFacts {
  /** Form path. */
  f: string;
  /** Issued at, ms. */
  i: number;
  /** Expires at, ms. */
  e: number;
}

export function createProofOfWork(settings: ProofOfWorkSettings, ledger: ChallengeLedger): ProofOfWork {
  return {
    async issue(now) {
      const data: ChallengeFacts = { f: settings.form, i: now, e: now + settings.expiresSeconds * 1000 };
      const { secret, keySecret } = await settings.secrets();
      return createChallenge({
        algorithm: POW_ALGORITHM,
        cost: POW_COST,
        counter: randomInt(POW_COUNTER_MAX, POW_COUNTER_MIN),
        deriveKey,
        data: { ...data },
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      });
    },
    async check(value, now) {
      const payload = parsePayload(value);
      if (payload === undefined) return 'proof_of_work';
      const facts = factsOf(payload.challenge);
      if (facts === undefined || facts.f !== settings.form) return 'proof_of_work';
      const { secret, keySecret } = await settings.secrets();
      let result;
      try {
        result = await verifySolution({ challenge: payload.challenge, solution: payload.solution as never, deriveKey, hmacSignatureSecret: secret, hmacKeySignatureSecret: keySecret });
      } catch {
        return 'proof_of_work';
      }
      if (!result.verified) return 'proof_of_work';
      if (now > facts.e) return 'expired';
      // Used or not, a verified challenge is spent here: a bot that submits too fast cannot try again with it.
      const first = await ledger.useOnce(payload.challenge.parameters.nonce, facts.e);
      if (!first) return 'replayed';
      if (now - facts.i < settings.minSeconds * 1000) return 'too_fast';
      return undefined;
    },
  };
}

/** The two HMAC keys of the challenges, from the install's secret (the same on every replica sharing the state store). */
export function proofOfWorkSecrets(installSecret: Buffer): PowSecrets {
  const derive = (purpose: string) => createHmac('sha256', installSecret).update(purpose).digest('hex');
  return { secret: derive('postbox altcha challenges'), keySecret: derive('postbox altcha keys') };
}

interface Payload {
  challenge: Challenge;
  solution: unknown;
}

/** The widget's value: base64 of JSON `{challenge, solution}`; anything else is no solution. */
function parsePayload(value: unknown): Payload | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 8192) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { challenge, solution } = parsed as Record<string, unknown>;
  if (typeof challenge !== 'object' || challenge === null || typeof solution !== 'object' || solution === null) return undefined;
  const parameters = (challenge as Record<string, unknown>).parameters;
  if (typeof parameters !== 'object' || parameters === null || typeof (parameters as Record<string, unknown>).nonce !== 'string') return undefined;
  return { challenge: challenge as Challenge, solution };
}

function factsOf(challenge: Challenge): ChallengeFacts | undefined {
  const data = challenge.parameters.data;
  if (!data) return undefined;
  const { f, i, e } = data;
  return typeof f === 'string' && typeof i === 'number' && typeof e === 'number' ? { f, i, e } : undefined;
}
