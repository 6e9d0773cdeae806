// Which PostgreSQL failures are an outage (503, try again) and which a fault in the statement (logged as a bug).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { isUnreachable, postgresReason } from '../../../src/adapters/postgres/errors.js';

function serverError(code: string): pg.DatabaseError {
  const error = new pg.DatabaseError('message that may quote a value', 0, 'error');
  error.code = code;
  return error;
}

describe('isUnreachable', () => {
  const cases: Array<[string, unknown, boolean]> = [
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), true],
    ['a connection the server dropped', new Error('Connection terminated unexpectedly'), true],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect'), true],
    ['the server shutting down (57P01)', serverError('57P01'), true],
    ['the server starting up (57P03)', serverError('57P03'), true],
    ['too many connections (53300)', serverError('53300'), true],
    ['a connection failure (08006)', serverError('08006'), true],
    ['a unique violation (23505)', serverError('23505'), false],
    ['a missing table (42P01)', serverError('42P01'), false],
  ];
  for (const [why, error, expected] of cases) {
    it(`${why}: ${expected ? 'unreachable' : 'a fault'}`, () => assert.equal(isUnreachable(error), expected));
  }
});

describe('postgresReason', () => {
  it('logs the SQLSTATE of a server error, never its message', () => {
    assert.equal(postgresReason(serverError('23505')), 'sqlstate_23505');
    assert.equal(postgresReason(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })), 'ECONNREFUSED');
  });
});
