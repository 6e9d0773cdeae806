// An AccountStore (src/admin/accounts/account-store.ts) kept in memory, for tests of whatever uses accounts: every
// method as the file and PostgreSQL stores answer it, records copied in and out so a caller never holds the
// store's own objects, and every change done in one synchronous step (so it is atomic, as the real stores are).
import type { AuditEvent, Invitation, StoredAccount } from '../../src/admin/accounts/account.js';
import type { AccountStore } from '../../src/admin/accounts/account-store.js';

export interface MemoryAccountStore extends AccountStore {
  /** The audit events as appended, oldest first (copies). */
  auditEvents(): AuditEvent[];
  /** Every invitation kept, expired ones too (copies). */
  allInvitations(): Invitation[];
}

function copyAccount(account: StoredAccount): StoredAccount {
  return {
    ...account,
    totp: account.totp && { ...account.totp, recoveryCodeHashes: [...account.totp.recoveryCodeHashes] },
    passkeys: account.passkeys.map((passkey) => ({ ...passkey, transports: passkey.transports && [...passkey.transports] })),
    ...(account.devices && { devices: account.devices.map((device) => ({ ...device })) }),
  };
}

/** Names in code unit order, as the other stores sort them. */
function compareNames(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/** An empty store, or one holding `accounts`. */
export function createMemoryAccountStore(accounts: readonly StoredAccount[] = []): MemoryAccountStore {
  const users = new Map<string, StoredAccount>(accounts.map((account) => [account.name, copyAccount(account)]));
  let invitations: Invitation[] = [];
  const audit: AuditEvent[] = [];

  return {
    list: async () => [...users.values()].sort((first, second) => compareNames(first.name, second.name)).map(copyAccount),
    async get(name) {
      const found = users.get(name);
      return found && copyAccount(found);
    },
    async create(account) {
      if (users.has(account.name)) return false;
      users.set(account.name, copyAccount(account));
      return true;
    },
    async update(name, change) {
      const before = users.get(name);
      const after = change(before && copyAccount(before));
      if (!after) return undefined;
      const stored = { ...copyAccount(after), name };
      users.set(name, stored);
      return copyAccount(stored);
    },
    remove: async (name) => users.delete(name),
    async addInvitation(invitation) {
      if (invitations.some((existing) => existing.tokenHash === invitation.tokenHash)) return false;
      invitations.push({ ...invitation });
      return true;
    },
    listInvitations: async (now) =>
      invitations
        .filter((invitation) => invitation.expiresAt > now)
        .sort((first, second) => second.createdAt - first.createdAt)
        .map((invitation) => ({ ...invitation })),
    async takeInvitation(tokenHash, now) {
      const found = invitations.find((invitation) => invitation.tokenHash === tokenHash);
      // Expired invitations go with any taking, as in the file store.
      invitations = invitations.filter((invitation) => invitation.tokenHash !== tokenHash && invitation.expiresAt > now);
      return found && found.expiresAt > now ? { ...found } : undefined;
    },
    async dropInvitation(tokenHash) {
      const before = invitations.length;
      invitations = invitations.filter((invitation) => invitation.tokenHash !== tokenHash);
      return invitations.length !== before;
    },
    async audit(event) {
      audit.push({ ...event });
    },
    async listAudit(limit, offset = 0) {
      if (limit <= 0) return [];
      const newestFirst = [...audit].reverse();
      return newestFirst.slice(offset, offset + limit).map((event) => ({ ...event }));
    },
    auditEvents: () => audit.map((event) => ({ ...event })),
    allInvitations: () => invitations.map((invitation) => ({ ...invitation })),
  };
}
