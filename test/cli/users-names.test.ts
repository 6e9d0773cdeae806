// `postbox users add` refuses the names an invitation refuses (src/admin/accounts/user-names.ts): letters of two
// scripts, invisible formatting characters, and a look-alike of a user's or an open invitation's name; nothing is
// asked or stored then.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runUsersCommand, type UsersCommandIo } from '../../src/cli/users.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { TEST_EPOCH_MS } from '../support/clock.js';

const PASSWORD = 'correct horse battery';

describe('postbox users add', () => {
  it('refuses a mixed-script, invisible or look-alike name, with exit 1, before asking for a password', async () => {
    const store = createMemoryAccountStore([{ name: 'ed', role: 'editor', passwordHash: 'scrypt$x', generation: 0, passkeys: [], createdAt: 0 }]);
    await store.addInvitation({ tokenHash: 'f'.repeat(64), name: 'nina', role: 'author', createdBy: 'ed', createdAt: TEST_EPOCH_MS, expiresAt: TEST_EPOCH_MS + 3_600_000 });
    const config = { admin: { users: [{ name: 'jane', password_hash: 'scrypt$y' }] } } as Parameters<typeof runUsersCommand>[1];
    const add = async (name: string) => {
      const errors: string[] = [];
      let asked = 0;
      const io: UsersCommandIo = {
        out: () => undefined,
        error: (text) => void errors.push(text),
        readPassword: async () => {
          asked += 1;
          return PASSWORD;
        },
        now: () => TEST_EPOCH_MS,
      };
      const code = await runUsersCommand({ action: 'add', name, role: 'author' }, config, { accounts: store, ready: async () => undefined }, io);
      return { code, error: errors.join(''), asked };
    };
    const cases: Array<[string, RegExp]> = [
      ['\u0435d', /mixes letters of Cyrillic and Latin script/], // Cyrillic е, Latin d
      ['\u0415D', /mixes letters of Cyrillic and Latin script/],
      ['bob\u200b', /invisible formatting characters/],
      ['ED', /differs from the user ed only by case or by look-alike letters/],
      ['\u0435\u0501', /differs from the user ed only by case or by look-alike letters/], // Cyrillic е and ԁ
      ['JANE', /differs from the user jane only by case/],
      ['NINA', /differs from the open invitation of nina only by case/],
    ];
    for (const [name, reason] of cases) {
      const refused = await add(name);
      assert.equal(refused.code, 1, JSON.stringify(name));
      assert.match(refused.error, reason, JSON.stringify(name));
      assert.equal(refused.asked, 0, 'no password asked');
    }
    assert.deepEqual((await store.list()).map((account) => account.name), ['ed']);

    const added = await add('Вера');
    assert.equal(added.code, 0, added.error);
    assert.equal((await store.get('Вера'))?.role, 'author');
  });
});
