// The account store of data_dir (src/adapters/files/account-files.ts) on real files: a round trip, and the races of
// a `serve` and a `postbox users` command sharing data_dir, played by two store instances over one folder, each
// with its own cache and queue, so that only the lock file keeps them apart.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ACCOUNTS_FILE, ACCOUNTS_LOCK_FILE, AUDIT_FILE, createAccountFiles, RECHECK_MS } from '../../../src/adapters/files/account-files.js';
import type { Invitation, StoredAccount } from '../../../src/admin/accounts/account.js';
import { createTestClock } from '../../support/clock.js';
import { createTempDir } from '../../support/temp-dir.js';

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

describe('account files', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let count = 0;
  /** A fresh data_dir for one test. */
  const dataDir = async () => {
    count += 1;
    const dir = path.join(temp.dir, `data-${count}`);
    await mkdir(dir);
    return dir;
  };
  before(async () => {
    temp = await createTempDir('account-files');
  });
  after(async () => {
    await temp.remove();
  });

  it('keeps users, invitations and audit events, and reads them back from the files', async () => {
    const dir = await dataDir();
    const store = createAccountFiles(dir);
    assert.deepEqual(await store.list(), []);
    assert.equal(await store.get('jane'), undefined);
    assert.equal(await store.create(jane), true);
    assert.equal(await store.create({ ...jane, role: 'owner' }), false, 'a taken name');
    assert.equal(await store.create({ name: 'adam', role: 'author', passwordHash: 'x', generation: 2, passkeys: [], createdAt: 5 }), true);
    // A user of the config has a record without role or password, made by update.
    const configUser = await store.update('ops', (current) => (current ? undefined : { name: 'other name is ignored', generation: 1, passkeys: [], createdAt: 7 }));
    assert.deepEqual(configUser, { name: 'ops', generation: 1, passkeys: [], createdAt: 7 });
    assert.equal(await store.update('nobody', () => undefined), undefined);

    const again = createAccountFiles(dir);
    assert.deepEqual(await again.get('jane'), jane);
    assert.deepEqual((await again.list()).map((account) => account.name), ['adam', 'jane', 'ops']);
    const changed = await again.update('jane', (current) => current && { ...current, generation: current.generation + 1, totp: undefined });
    assert.equal(changed?.generation, 1);
    assert.equal((await again.get('jane'))?.totp, undefined);
    assert.equal(await again.remove('adam'), true);
    assert.equal(await again.remove('adam'), false);

    assert.equal(await store.addInvitation(invitation('aa', 10_000, 1)), true);
    assert.equal(await store.addInvitation(invitation('aa', 20_000)), false);
    assert.equal(await store.addInvitation(invitation('bb', 10_000, 2)), true);
    assert.equal(await store.addInvitation(invitation('cc', 3_000, 3)), true);
    assert.deepEqual((await store.listInvitations(5_000)).map((entry) => entry.tokenHash), ['bb', 'aa'], 'unexpired, newest first');
    assert.equal(await again.takeInvitation('cc', 5_000), undefined, 'expired');
    assert.deepEqual(await again.takeInvitation('aa', 5_000), invitation('aa', 10_000, 1));
    assert.equal(await store.takeInvitation('aa', 5_000), undefined);
    assert.equal(await store.dropInvitation('bb'), true);
    assert.equal(await store.dropInvitation('bb'), false);
    assert.deepEqual(await store.listInvitations(0), []);

    await store.audit({ at: 1, event: 'user_added', subject: 'jane', network: 'cli' });
    await store.audit({ at: 2, user: 'jane', event: 'sign_in', network: '192.0.2.1' });
    await store.audit({ at: 3, user: 'jane', event: 'password_changed', network: '192.0.2.1' });
    assert.deepEqual(await again.listAudit(2), [
      { at: 3, user: 'jane', event: 'password_changed', network: '192.0.2.1' },
      { at: 2, user: 'jane', event: 'sign_in', network: '192.0.2.1' },
    ]);
    assert.deepEqual(await again.listAudit(5, 2), [{ at: 1, event: 'user_added', subject: 'jane', network: 'cli' }]);
    assert.deepEqual(await again.listAudit(0), []);

    const onDisk = JSON.parse(await readFile(path.join(dir, ACCOUNTS_FILE), 'utf8')) as { users: StoredAccount[] };
    assert.deepEqual(onDisk.users.map((account) => account.name), ['jane', 'ops']);
    assert.equal((await readFile(path.join(dir, AUDIT_FILE), 'utf8')).split('\n').length, 4, 'three lines and the last newline');
    // Nothing is left of the lock.
    await assert.rejects(stat(path.join(dir, ACCOUNTS_LOCK_FILE)), { code: 'ENOENT' });
  });

  it('does not overwrite a users file it cannot read', async () => {
    const dir = await dataDir();
    await writeFile(path.join(dir, ACCOUNTS_FILE), '{"users": [', 'utf8');
    const store = createAccountFiles(dir);
    await assert.rejects(store.create(jane), /not valid JSON/);
    await assert.rejects(store.list(), /not valid JSON/);
    assert.equal(await readFile(path.join(dir, ACCOUNTS_FILE), 'utf8'), '{"users": [');
  });

  it('loses none of 50 concurrent updates made by two instances over one data_dir', async () => {
    const dir = await dataDir();
    const first = createAccountFiles(dir);
    const second = createAccountFiles(dir);
    assert.equal(await first.create({ ...jane, generation: 0 }), true);
    const bump = (current: StoredAccount | undefined) => current && { ...current, generation: current.generation + 1 };
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 === 0 ? first : second).update('jane', bump)));
    assert.deepEqual(results.map((result) => result?.generation).sort((a, b) => a! - b!), Array.from({ length: 50 }, (_, index) => index + 1));
    assert.equal((await createAccountFiles(dir).get('jane'))?.generation, 50);
  });

  it('makes exactly one record when two instances insert the same missing user at once', async () => {
    const dir = await dataDir();
    const first = createAccountFiles(dir);
    const second = createAccountFiles(dir);
    // A config user's first second factor, from two requests: each adds one passkey to what is there.
    const addPasskey = (id: string) => (current: StoredAccount | undefined): StoredAccount => ({
      ...(current ?? { name: 'ops', generation: 0, passkeys: [], createdAt: 1 }),
      passkeys: [...(current?.passkeys ?? []), { id, publicKey: 'pk', counter: 0, label: id, createdAt: 1 }],
    });
    await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).update('ops', addPasskey(`key-${index}`))));
    const stored = await createAccountFiles(dir).get('ops');
    assert.equal(stored?.passkeys.length, 20);
  });

  it('shows a change of another instance within a second: once RECHECK_MS have passed on its clock', async () => {
    assert.ok(RECHECK_MS <= 1_000);
    const dir = await dataDir();
    const clock = createTestClock();
    const serve = createAccountFiles(dir, { clock });
    const command = createAccountFiles(dir);
    assert.equal(await serve.get('jane'), undefined);
    assert.deepEqual(await serve.list(), []);
    await command.create(jane);
    clock.advance(RECHECK_MS - 1);
    assert.equal(await serve.get('jane'), undefined, 'what it read a moment ago still holds');
    clock.advance(1);
    assert.equal((await serve.get('jane'))?.name, 'jane');
    await command.update('jane', (current) => current && { ...current, generation: 7 });
    clock.advance(RECHECK_MS);
    assert.equal((await serve.get('jane'))?.generation, 7);
    assert.deepEqual((await serve.list()).map((account) => account.generation), [7]);
  });

  it('gives an invitation to one of many concurrent takers', async () => {
    const dir = await dataDir();
    const first = createAccountFiles(dir);
    const second = createAccountFiles(dir);
    for (const token of ['t1', 't2', 't3']) assert.equal(await first.addInvitation(invitation(token, 1_000_000)), true);
    for (const token of ['t1', 't2', 't3']) {
      const takers = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).takeInvitation(token, 500)));
      assert.equal(takers.filter((taken) => taken !== undefined).length, 1, `${token} taken once`);
    }
    // A fresh reader: an instance's cached view may be up to 250 ms old (the interface allows a second).
    assert.deepEqual(await createAccountFiles(dir).listInvitations(0), []);
  });

  it('takes over a lock left by a process that died holding it, and waits for a live one', async () => {
    const dir = await dataDir();
    const store = createAccountFiles(dir);
    const lock = path.join(dir, ACCOUNTS_LOCK_FILE);
    await writeFile(lock, '12345 dead\n');
    const old = new Date(Date.now() - 11_000);
    await utimes(lock, old, old);
    assert.equal(await store.create(jane), true);
    await assert.rejects(stat(lock), { code: 'ENOENT' });

    await writeFile(lock, '12345 alive\n');
    let done = false;
    const creating = store.create({ ...jane, name: 'adam' }).then((created) => ((done = true), created));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(done, false, 'waits while the lock is held');
    await rm(lock);
    assert.equal(await creating, true);
  });
});
