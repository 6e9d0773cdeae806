// Where accounts, invitations and the audit log are kept: data_dir/admin-users.json and admin-audit.jsonl
// (src/adapters/files/account-files.ts), or PostgreSQL tables every replica shares
// (src/adapters/postgres/account-store.ts). Every change is atomic: two changes of one user at the same moment,
// from two requests, two replicas or a command beside `serve`, never lose one of them.
import type { AuditEvent, Invitation, StoredAccount } from './account.js';

export interface AccountStore {
  /** Every stored user, in name order. */
  list(): Promise<StoredAccount[]>;
  /** The stored record of `name`; a running `serve` sees a command's change within a second. */
  get(name: string): Promise<StoredAccount | undefined>;
  /** Stores a new user; false when the name is taken. */
  create(account: StoredAccount): Promise<boolean>;
  /**
   * Applies `change` to the record of `name` and stores the result, atomically; without a record, `change` gets
   * `undefined` (it may return a new record, for a config user's second factor). Returns what was stored, or
   * undefined when `change` returned undefined (nothing is written).
   */
  update(name: string, change: (current: StoredAccount | undefined) => StoredAccount | undefined): Promise<StoredAccount | undefined>;
  /** Removes the record of `name`; false when there was none. */
  remove(name: string): Promise<boolean>;
  /** Stores an invitation; false when its token hash exists. */
  addInvitation(invitation: Invitation): Promise<boolean>;
  /** The unexpired invitations, newest first. */
  listInvitations(now: number): Promise<Invitation[]>;
  /** Takes the invitation of `tokenHash` if unexpired: the first caller of any number gets it, the others undefined. */
  takeInvitation(tokenHash: string, now: number): Promise<Invitation | undefined>;
  /** Removes the invitation of `tokenHash` (withdrawn by an owner). */
  dropInvitation(tokenHash: string): Promise<boolean>;
  /** Appends one event to the audit log. */
  audit(event: AuditEvent): Promise<void>;
  /** Audit events, newest first: at most `limit`, after skipping the `offset` newest. */
  listAudit(limit: number, offset?: number): Promise<AuditEvent[]>;
}
