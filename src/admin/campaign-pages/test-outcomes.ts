// What the last test sends came to, kept in memory for the page the POST redirects to: the redirect carries only a
// random key, so no text of the query (a link someone else made) is ever shown as a message. Only the person who
// sent the test sees its outcome; the oldest are forgotten past a few dozen.
import type { SendOutcome as TestSendOutcome } from '../../ports.js';

const KEPT = 64;

export interface TestOutcomeNote {
  ok: boolean;
  /** What the page says, e.g. "Test sent to jane@example.org." */
  text: string;
  /** The transport's own report (the SMTP server that accepted it, or its answer). */
  detail: string;
}

export interface TestOutcomes {
  /** Keeps `outcome` of a test to `address` sent by `user`; the key goes into the redirect. */
  keep(user: string, address: string, outcome: TestSendOutcome): string;
  /** The note kept under `key` for `user`, if any. */
  find(user: string, key: string): TestOutcomeNote | undefined;
}

export function createTestOutcomes(randomHex: () => string): TestOutcomes {
  const kept = new Map<string, { user: string; note: TestOutcomeNote }>();
  return {
    keep(user, address, outcome) {
      const key = randomHex();
      kept.set(key, {
        user,
        note: outcome.ok ? { ok: true, text: `Test sent to ${address}.`, detail: outcome.report } : { ok: false, text: `Test to ${address} not sent.`, detail: outcome.report },
      });
      for (const oldest of kept.keys()) {
        if (kept.size <= KEPT) break;
        kept.delete(oldest);
      }
      return key;
    },
    find(user, key) {
      const entry = kept.get(key);
      return entry && entry.user === user ? entry.note : undefined;
    },
  };
}
