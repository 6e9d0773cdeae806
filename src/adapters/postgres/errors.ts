// Which PostgreSQL failures mean "the database cannot be reached now" (503, try again) rather than a fault in
// what was asked (a bug, logged as such). SQLSTATE classes: PostgreSQL manual, appendix A.
import type Pg from 'pg';
import { lazyModule } from '../../kit/lazy-module.js';
import { safeReason } from '../../kit/safe-reason.js';

const pg = lazyModule<typeof Pg>('pg');

/**
 * Unreachable: no answer from a server at all (a refused or broken connection, a timeout, a pool that gave up),
 * or class 08 (connection exception), 53 (insufficient resources: too many connections, disk full) or 57P
 * (the server shutting down or starting up).
 */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof pg().DatabaseError)) return true;
  return /^(08|53|57P)/.test(error.code ?? '');
}

/** A code safe to log: the SQLSTATE of a server error (never its message, which may quote values), else safeReason. */
export function postgresReason(error: unknown): string {
  if (error instanceof pg().DatabaseError && error.code) return `sqlstate_${error.code}`;
  return safeReason(error);
}
