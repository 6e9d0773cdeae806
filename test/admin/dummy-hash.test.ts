// An unknown name's password is checked against a hash as costly as the real ones (docs/admin.md "Signing in"):
// a fixed dummy of other parameters answered an unknown name in a fraction of a wrong password's time.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { createDummyHashLike } from '../../src/admin/dummy-hash.js';
import { DEFAULT_SCRYPT, verifyPassword } from '../../src/kit/password-hash.js';

const salt = Buffer.alloc(16, 7).toString('base64');
const hashOf = (params: string, bytes = 32) => `scrypt$${params}$${salt}$${Buffer.alloc(bytes, 1).toString('base64')}`;

describe('the dummy hash of unknown names', () => {
  it("takes the configuration's parameters when they cost more than a new hash's", () => {
    const dummy = createDummyHashLike([hashOf('N=32768,r=8,p=1'), hashOf('N=1048576,r=8,p=1', 64)], randomBytes);
    assert.deepEqual([dummy.N, dummy.r, dummy.p, dummy.hash.length], [1048576, 8, 1, 64]);
    assert.deepEqual(
      [createDummyHashLike([hashOf('N=131072,r=16,p=2')], randomBytes)].map((hash) => [hash.N, hash.r, hash.p]),
      [[131072, 16, 2]],
    );
  });

  it("keeps a new hash's parameters (the account store's) when the configuration's cost less", () => {
    const dummy = createDummyHashLike([hashOf('N=16384,r=8,p=1'), 'not a hash'], randomBytes);
    assert.deepEqual([dummy.N, dummy.r, dummy.p], [DEFAULT_SCRYPT.N, DEFAULT_SCRYPT.r, DEFAULT_SCRYPT.p]);
  });

  it('is random: no password gives it', async () => {
    const dummy = createDummyHashLike([], randomBytes);
    assert.notDeepEqual(dummy.salt, createDummyHashLike([], randomBytes).salt);
    assert.equal(await verifyPassword({ ...dummy, N: 16384 }, ''), false);
  });
});
