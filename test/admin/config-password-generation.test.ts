// A configuration owner's sessions end when their password hash in config.toml changes (docs/admin.md "Sessions"):
// the hash is part of the user's generation, which every session is checked against.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';

describe("a configuration user's generation", () => {
  it('moves on with a new password hash and with "Sign out everywhere", and stays put otherwise', async () => {
    const store = createMemoryAccountStore();
    const generationWith = async (hash: string) => (await createAccounts([{ name: 'jane', password_hash: hash }], store).find('jane'))!.generation;
    const before = await generationWith('scrypt$N=16384,r=8,p=1$c2FsdA==$old');
    assert.equal(await generationWith('scrypt$N=16384,r=8,p=1$c2FsdA==$old'), before, 'the same hash after a restart: sessions live on');
    const changed = await generationWith('scrypt$N=16384,r=8,p=1$c2FsdA==$new');
    assert.notEqual(changed, before, 'a new hash: every session of the old password is over');
    await store.update('jane', (current) => ({ ...(current ?? { name: 'jane', passkeys: [], createdAt: 0 }), generation: (current?.generation ?? 0) + 1 }));
    const signedOut = await generationWith('scrypt$N=16384,r=8,p=1$c2FsdA==$new');
    assert.notEqual(signedOut, changed, 'Sign out everywhere still ends them');
    assert.ok(Number.isSafeInteger(signedOut));
  });
});
