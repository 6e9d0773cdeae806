// Throttled sign-in (docs/admin.md "Signing in"): at most 5 failed attempts in 15 minutes from one address or for one
// name, and the next attempt is refused until the oldest of them is 15 minutes old. An attempt takes its place among
// the failures before its password is checked (`reserve`: the limit checked and a failure recorded in one step), so
// attempts sent all at once cannot pass the limit together; a sign-in that succeeds takes its place back (`release`).
// With files, counted in memory: a restart forgets them, which an attacker cannot cause from outside. With PostgreSQL,
// counted in a table every replica reads (src/adapters/postgres/sign-in-failures.ts), over the same rule (`waitMsOf`).
import { randomBytes } from 'node:crypto';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILED_SIGN_INS = 5;

/** Beyond this many keys, the ones whose failures all expired are dropped. */
const PRUNE_ABOVE = 1_000;

/** The bytes of the shared key that sign-in's signed tokens are derived from. */
export const DEVICE_KEY_BYTES = 32;

/** A place taken among the failures of some keys at one time: it counts as a failure until released. */
export interface SignInTicket {
  readonly keys: readonly string[];
  readonly at: number;
}

/** What `reserve` decided: the attempt may be checked (its ticket holds its place), or must wait. */
export type SignInReservation = { allowed: true; ticket: SignInTicket } | { allowed: false; waitMs: number };

export interface SignInThrottle {
  /**
   * In one step that no other reservation can interleave with: when fewer than 5 failures of the last 15 minutes
   * are counted under every one of `keys`, records a failure under each at `now` and allows the attempt; otherwise
   * records nothing and says how many milliseconds until it would be allowed.
   */
  reserve(keys: readonly string[], now: number): Promise<SignInReservation>;
  /** Takes back the failure a ticket recorded (the sign-in succeeded, or its password was never checked). */
  release(ticket: SignInTicket): Promise<void>;
  /** Forgets the failures of `key` (after a successful sign-in under it). */
  forget(key: string): Promise<void>;
  /**
   * The key sign-in's short-lived signed tokens (the pending second step, passkey ceremonies, a TOTP set-up) are
   * derived from: the same for every process sharing these records.
   */
  deviceKey(): Promise<Buffer>;
}

/**
 * The wait before the next attempt, given the failure times of each key (any order, any age): allowed again when
 * fewer than the maximum remain in the window under every key.
 */
export function waitMsOf(failuresPerKey: ReadonlyArray<readonly number[]>, now: number): number {
  let wait = 0;
  for (const all of failuresPerKey) {
    const times = all.filter((at) => now - at < SIGN_IN_WINDOW_MS).sort((first, second) => first - second);
    if (times.length < MAX_FAILED_SIGN_INS) continue;
    const freedAt = (times[times.length - MAX_FAILED_SIGN_INS] as number) + SIGN_IN_WINDOW_MS;
    wait = Math.max(wait, freedAt - now);
  }
  return wait;
}

export interface MemoryThrottleOptions {
  /**
   * The shared signing key, or how to load it once (the files backend derives it from a secret kept in data_dir);
   * by default 32 random bytes made here, so a restart ends every pending sign-in step.
   */
  deviceKey?: Buffer | (() => Promise<Buffer>);
}

/**
 * A throttle counting failed sign-ins per key ("ip:...", "name:...", "device:..." of a remembered browser, and
 * "reauth:..." of the password asked again) in this process's memory. `reserve` checks and records without awaiting
 * anything in between, so no other attempt of this process runs between the two.
 */
export function createSignInThrottle(options: MemoryThrottleOptions = {}): SignInThrottle {
  const failures = new Map<string, number[]>();
  const given = options.deviceKey ?? randomBytes(DEVICE_KEY_BYTES);
  let deviceKey: Promise<Buffer> | undefined;
  const recent = (key: string, now: number): number[] => (failures.get(key) ?? []).filter((at) => now - at < SIGN_IN_WINDOW_MS);
  return {
    async reserve(keys, now) {
      const waitMs = waitMsOf(
        keys.map((key) => recent(key, now)),
        now,
      );
      if (waitMs > 0) return { allowed: false, waitMs };
      if (failures.size > PRUNE_ABOVE) {
        for (const key of [...failures.keys()]) if (recent(key, now).length === 0) failures.delete(key);
      }
      for (const key of new Set(keys)) failures.set(key, [...recent(key, now), now]);
      return { allowed: true, ticket: { keys: [...new Set(keys)], at: now } };
    },
    async release(ticket) {
      for (const key of ticket.keys) {
        const times = failures.get(key);
        const index = times?.indexOf(ticket.at) ?? -1;
        if (times && index >= 0) times.splice(index, 1);
        if (times?.length === 0) failures.delete(key);
      }
    },
    async forget(key) {
      failures.delete(key);
    },
    deviceKey() {
      deviceKey ??= (Buffer.isBuffer(given) ? Promise.resolve(given) : given()).catch((error: unknown) => {
        // Tried again at the next sign-in.
        deviceKey = undefined;
        throw error;
      });
      return deviceKey;
    },
  };
}
