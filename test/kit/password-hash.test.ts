import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_PASSWORD_HASH } from '../../src/admin/example-user.js';
import { createDummyHash, hashPassword, parsePasswordHash, verifyPassword, type PasswordHash } from '../../src/kit/password-hash.js';

const FAST = { N: 16384, r: 8, p: 1 };

function parsed(text: string): PasswordHash {
  const result = parsePasswordHash(text);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

describe('password hashes', () => {
  it('the example hash is of the password the README names', async () => {
    assert.equal(await verifyPassword(parsed(EXAMPLE_PASSWORD_HASH), 'postbox-example-password'), true);
    assert.equal(await verifyPassword(parsed(EXAMPLE_PASSWORD_HASH), 'postbox-example-passwore'), false);
  });

  it('keeps its parameters in the string and verifies with them', async () => {
    const text = await hashPassword('a long enough secret', Buffer.alloc(16, 7), FAST);
    assert.match(text, /^scrypt\$N=16384,r=8,p=1\$/);
    assert.equal(await verifyPassword(parsed(text), 'a long enough secret'), true);
    assert.equal(await verifyPassword(parsed(text), 'A long enough secret'), false);
  });

  it('a dummy hash has the parameters and length of the real one and matches nothing typed', async () => {
    const real = parsed(await hashPassword('a long enough secret', Buffer.alloc(16, 1), FAST));
    const dummy = await createDummyHash(real, Buffer.alloc(16, 2));
    assert.deepEqual([dummy.N, dummy.r, dummy.p, dummy.hash.length], [real.N, real.r, real.p, real.hash.length]);
    assert.equal(await verifyPassword(dummy, 'a long enough secret'), false);
  });

  it('refuses malformed strings and parameters out of bounds', () => {
    for (const text of ['', 'secret', 'scrypt$N=32768,r=8,p=1$$', 'bcrypt$2b$10$abc', EXAMPLE_PASSWORD_HASH.replace('N=32768', 'N=30000'), EXAMPLE_PASSWORD_HASH.replace('N=32768', 'N=2097152'), EXAMPLE_PASSWORD_HASH.replace('r=8', 'r=0'), EXAMPLE_PASSWORD_HASH.replace('cG9zdGJveC1leGFtcGxlIQ==', 'c2FsdA==')]) {
      assert.ok('problem' in parsePasswordHash(text), text);
    }
  });
});
