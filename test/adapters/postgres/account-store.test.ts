// The account store in PostgreSQL (src/adapters/postgres/account-store.ts) on a real server: a round trip, and the
// races of two replicas (or a replica and a command), played by two stores over two pools on one database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPostgresAccountStore } from '../../../src/adapters/postgres/account-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import type { AccountStore } from '../../../src/admin/accounts/account-store.js';
import type { Invitation, StoredAccount } from '../../../src/admin/accounts/account.js';
import { captureLogs } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const jane: StoredAccount = {
  name: 'jane',
  role: 'editor',
  email: 'jane@example.com',
  passwordHash: 'scrypt$N=131072,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA==$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g=',
  generation: 0,
  totp: { secret: 'JBSWY3DPEHPK3PXP', recoveryCodeHashes: ['a'.repeat(64)], enabledAt: 1_700_000_000_000 },
  passkeys: [{ id: 'cred-1', publicKey: 'pk', counter: 3, label: 'Laptop', transports: ['internal'], createdAt: 1_700_000_000_001 }],
  createdAt: 1_700_000_000_000,
};

const invitation = (tokenHash: string, expiresAt: number, createdAt = 1_000): Invitation => ({
  tokenHash,
  name: `guest-${tokenHash}`,
  role: 'author',
  createdBy: 'jane',
  createdAt,
  expiresAt,
});

describe('the PostgreSQL account store', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let count = 0;
  /** Two stores over two pools on a fresh database. */
  const twoStores = async (): Promise<[AccountStore, AccountStore]> => {
    count += 1;
    const url = await postgres.createDatabase(`accounts_${count}`);
    const pair = [createPostgresState(url, captureLogs().logger), createPostgresState(url, captureLogs().logger)];
    states.push(...pair);
    for (const state of pair) await state.migrated();
    return [createPostgresAccountStore(pair[0]!), createPostgresAccountStore(pair[1]!)];
  };
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(states.map((state) => state.close()));
    await postgres?.close();
  });

  it('keeps users, invitations and audit events', async () => {
    const [store, other] = await twoStores();
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.get('jane'), undefined);
    assert.equal(await store.create(jane), true);
    assert.equal(await other.create({ ...jane, role: 'owner' }), false, 'a taken name');
    assert.equal(await store.create({ name: 'adam', role: 'author', passwordHash: 'x', generation: 2, passkeys: [], createdAt: 5 }), true);
    const configUser = await store.update('ops', (current) => (current ? undefined : { name: 'other name is ignored', generation: 1, passkeys: [], createdAt: 7 }));
    assert.deepEqual(configUser, { name: 'ops', generation: 1, passkeys: [], createdAt: 7 });
    assert.equal(await store.update('nobody', () => undefined), undefined);

    assert.deepEqual(await other.get('jane'), jane, 'seen at once by the other pool');
    assert.deepEqual(await other.get('ops'), { name: 'ops', generation: 1, passkeys: [], createdAt: 7 });
    assert.deepEqual((await other.list()).map((account) => account.name), ['adam', 'jane', 'ops']);
    const changed = await other.update('jane', (current) => current && { ...current, generation: current.generation + 1, totp: undefined, email: undefined });
    assert.equal(changed?.generation, 1);
    const { totp: _totp, email: _email, ...rest } = jane;
    assert.deepEqual(await store.get('jane'), { ...rest, generation: 1 });
    assert.equal(await other.remove('adam'), true);
    assert.equal(await store.remove('adam'), false);

    assert.equal(await store.addInvitation({ ...invitation('aa', 10_000, 1), email: 'guest@example.com' }), true);
    assert.equal(await other.addInvitation(invitation('aa', 20_000)), false);
    assert.equal(await store.addInvitation(invitation('bb', 10_000, 2)), true);
    assert.equal(await store.addInvitation(invitation('cc', 3_000, 3)), true);
    assert.deepEqual((await other.listInvitations(5_000)).map((entry) => entry.tokenHash), ['bb', 'aa'], 'unexpired, newest first');
    assert.equal(await other.takeInvitation('cc', 5_000), undefined, 'expired');
    assert.deepEqual(await other.takeInvitation('aa', 5_000), { ...invitation('aa', 10_000, 1), email: 'guest@example.com' });
    assert.equal(await store.takeInvitation('aa', 5_000), undefined);
    assert.equal(await store.dropInvitation('bb'), true);
    assert.equal(await store.dropInvitation('bb'), false);
    assert.deepEqual(await store.listInvitations(0), []);

    await store.audit({ at: 1, event: 'user_added', subject: 'jane', network: 'cli' });
    await other.audit({ at: 2, user: 'jane', event: 'sign_in', network: '192.0.2.1' });
    await store.audit({ at: 3, user: 'jane', event: 'password_changed', network: '192.0.2.1' });
    assert.deepEqual(await other.listAudit(2), [
      { at: 3, user: 'jane', event: 'password_changed', network: '192.0.2.1' },
      { at: 2, user: 'jane', event: 'sign_in', network: '192.0.2.1' },
    ]);
    assert.deepEqual(await other.listAudit(5, 2), [{ at: 1, event: 'user_added', subject: 'jane', network: 'cli' }]);
    assert.deepEqual(await other.listAudit(0), []);
  });

  it("keeps the remembered devices of a user and a config user's password tag", async () => {
    const [store, other] = await twoStores();
    assert.equal(await store.create(jane), true);
    const devices = [{ hash: 'b'.repeat(64), generation: 0, createdAt: 10, lastUsedAt: 20 }];
    await store.update('jane', (current) => current && { ...current, devices, configHashTag: '0123456789abcdef' });
    assert.deepEqual((await other.get('jane'))?.devices, devices);
    assert.equal((await other.get('jane'))?.configHashTag, '0123456789abcdef');
    const { devices: _devices, configHashTag: _tag, ...rest } = (await other.get('jane'))!;
    await other.update('jane', () => rest);
    assert.deepEqual(await store.get('jane'), jane, 'forgotten');
  });

  it('loses none of 50 concurrent updates made over two pools', async () => {
    const [first, second] = await twoStores();
    assert.equal(await first.create(jane), true);
    const bump = (current: StoredAccount | undefined) => current && { ...current, generation: current.generation + 1 };
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? first : second).update('jane', bump)));
    assert.deepEqual(results.map((result) => result?.generation).sort((a, b) => a! - b!), Array.from({ length: 50 }, (_, index) => index + 1));
    assert.equal((await first.get('jane'))?.generation, 50);
  });

  it('makes exactly one record when two pools insert the same missing user at once', async () => {
    const [first, second] = await twoStores();
    const addPasskey = (id: string) => (current: StoredAccount | undefined): StoredAccount => ({
      ...(current ?? { name: 'ops', generation: 0, passkeys: [], createdAt: 1 }),
      passkeys: [...(current?.passkeys ?? []), { id, publicKey: 'pk', counter: 0, label: id, createdAt: 1 }],
    });
    await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).update('ops', addPasskey(`key-${index}`))));
    assert.equal((await second.get('ops'))?.passkeys.length, 20);
  });

  it('gives an invitation to one of many concurrent takers', async () => {
    const [first, second] = await twoStores();
    for (const token of ['t1', 't2', 't3']) assert.equal(await first.addInvitation(invitation(token, 1_000_000)), true);
    for (const token of ['t1', 't2', 't3']) {
      const takers = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).takeInvitation(token, 500)));
      assert.equal(takers.filter((taken) => taken !== undefined).length, 1, `${token} taken once`);
    }
    assert.deepEqual(await second.listInvitations(0), []);
  });
});
