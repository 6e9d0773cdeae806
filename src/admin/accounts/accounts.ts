// The users of /admin as one list (docs/admin.md "Users and roles"): the config's `[admin] users`, owners that
// /admin shows but does not change, and the account store's. A config user's generation and second factors are
// kept in the store all the same, so that "Sign out everywhere" and TOTP work for them too, with a tag of the
// password hash the configuration gave at the last start: a new hash moves the generation on (recordConfigPasswords).
import { createHash } from 'node:crypto';
import type { AdminUser } from '../../config/config.js';
import type { Account, DeviceRecord, StoredAccount } from './account.js';
import type { AccountStore } from './account-store.js';

export interface Accounts {
  /** The user `name` now, or undefined when there is none (removed, never added). */
  find(name: string): Promise<Account | undefined>;
  /** Every user: the config's first, in its order, then the store's by name. */
  list(): Promise<Account[]>;
  /** Whether `name` is set in the config (it cannot be added, removed or given another role from /admin). */
  isConfigUser(name: string): boolean;
  store: AccountStore;
}

/** Accounts over `configUsers` and `store`. */
export function createAccounts(configUsers: readonly AdminUser[], store: AccountStore): Accounts {
  const fromConfig = new Map(configUsers.map((user) => [user.name, user]));
  const merge = (name: string, stored: StoredAccount | undefined): Account | undefined => {
    const configured = fromConfig.get(name);
    if (configured) {
      return {
        name,
        role: 'owner',
        email: stored?.email,
        passwordHash: configured.password_hash,
        generation: stored?.generation ?? 0,
        totp: stored?.totp,
        passkeys: stored?.passkeys ?? [],
        devices: currentDevices(stored),
        fromConfig: true,
        since: 0,
      };
    }
    if (!stored?.role || !stored.passwordHash) return undefined;
    return {
      name,
      role: stored.role,
      email: stored.email,
      passwordHash: stored.passwordHash,
      generation: stored.generation,
      totp: stored.totp,
      passkeys: stored.passkeys,
      devices: currentDevices(stored),
      fromConfig: false,
      since: stored.createdAt,
    };
  };
  return {
    find: async (name) => (name === '' ? undefined : merge(name, await store.get(name))),
    async list() {
      const stored = await store.list();
      const byName = new Map(stored.map((account) => [account.name, account]));
      const configured = configUsers.map((user) => merge(user.name, byName.get(user.name))!);
      const others = stored.filter((account) => !fromConfig.has(account.name)).flatMap((account) => merge(account.name, account) ?? []);
      return [...configured, ...others];
    },
    isConfigUser: (name) => fromConfig.has(name),
    store,
  };
}

/** The tag of a config user's password hash kept in the store: the first 64 bits of its SHA-256, hex. */
export function configHashTagOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('hex').slice(0, 16);
}

/**
 * `stored` (the record of a config user) with the tag of `passwordHash`, the hash the configuration gives now; a
 * different tag means the hash was changed in the configuration, and the generation moves on (every session and
 * remembered browser of the old password ends). Without a tag yet, it is stored and nothing moves. Undefined when
 * nothing changes.
 */
export function withConfigHashTag(stored: StoredAccount, passwordHash: string): StoredAccount | undefined {
  const tag = configHashTagOf(passwordHash);
  if (stored.configHashTag === tag) return undefined;
  if (stored.configHashTag === undefined) return { ...stored, configHashTag: tag };
  return { ...stored, configHashTag: tag, generation: stored.generation + 1 };
}

/**
 * At start: each config user's password hash compared with the one of the last start, in one atomic update per user
 * (withConfigHashTag). Returns the names whose hash changed, so that their sessions ended.
 */
export async function recordConfigPasswords(configUsers: readonly AdminUser[], store: AccountStore, now: number): Promise<string[]> {
  const changed: string[] = [];
  for (const user of configUsers) {
    let moved = false;
    await store.update(user.name, (current) => {
      const next = withConfigHashTag(current ?? { name: user.name, generation: 0, passkeys: [], createdAt: now }, user.password_hash);
      moved = next !== undefined && current !== undefined && next.generation !== current.generation;
      return next;
    });
    if (moved) changed.push(user.name);
  }
  return changed;
}

/** The remembered browsers of `stored` that belong to its generation now (a new password or role forgot the others). */
function currentDevices(stored: StoredAccount | undefined): DeviceRecord[] {
  return (stored?.devices ?? []).filter((device) => device.generation === stored?.generation);
}
