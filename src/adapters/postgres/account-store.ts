// The users of /admin in PostgreSQL (docs/admin.md "Users and roles"): the records of data_dir/admin-users.json and
// admin-audit.jsonl as rows of admin_users, admin_invitations and admin_audit, which every replica reads through, so
// a change made on one replica or by a command counts on every other at once. A change of a user runs in one
// transaction holding the row (SELECT ... FOR UPDATE); an invitation is taken by one DELETE ... RETURNING, so of
// any number of takers only one gets it.
import type { AuditEvent, DeviceRecord, Invitation, PasskeyRecord, Role, StoredAccount, TotpRecord } from '../../admin/accounts/account.js';
import type { AccountStore } from '../../admin/accounts/account-store.js';
import type { PostgresState, TransactionQuery } from './state.js';

interface UserRow {
  name: string;
  role: Role | null;
  email: string | null;
  password_hash: string | null;
  generation: string;
  totp: TotpRecord | null;
  passkeys: PasskeyRecord[];
  created_at: string;
  devices: DeviceRecord[] | null;
  config_hash_tag: string | null;
}

interface InvitationRow {
  token_hash: string;
  name: string;
  role: Role;
  email: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
}

interface AuditRow {
  at: string;
  user_name: string | null;
  event: string;
  subject: string | null;
  network: string | null;
}

const USER_COLUMNS = 'name, role, email, password_hash, generation, totp, passkeys, created_at, devices, config_hash_tag';
const INVITATION_COLUMNS = 'token_hash, name, role, email, created_by, created_at, expires_at';

/** How often `update` starts again when another transaction inserted the row it found missing. */
const INSERT_RACE_TRIES = 5;

/** The account store in the tables of `state`; queries reject with UnavailableError while the database is out of reach. */
export function createPostgresAccountStore(state: PostgresState): AccountStore {
  return {
    async list() {
      const { rows } = await state.query<UserRow>(`SELECT ${USER_COLUMNS} FROM admin_users ORDER BY name COLLATE "C"`);
      return rows.map(accountOf);
    },
    async get(name) {
      const { rows } = await state.query<UserRow>(`SELECT ${USER_COLUMNS} FROM admin_users WHERE name = $1`, [name]);
      return rows[0] && accountOf(rows[0]);
    },
    async create(account) {
      const { rowCount } = await state.query(`INSERT INTO admin_users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING`, valuesOf(account));
      return rowCount === 1;
    },
    async update(name, change) {
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await state.transaction((query) => updateOnce(query, name, change));
        if (outcome !== INSERT_RACE) return outcome;
        // Another caller inserted the row between our SELECT and INSERT: now there is a row to hold.
        if (attempt >= INSERT_RACE_TRIES) throw new Error(`admin_users: could not insert ${JSON.stringify(name)} after ${attempt} tries`);
      }
    },
    async remove(name) {
      const { rowCount } = await state.query('DELETE FROM admin_users WHERE name = $1', [name]);
      return rowCount === 1;
    },
    async addInvitation(invitation) {
      const { rowCount } = await state.query(`INSERT INTO admin_invitations (${INVITATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (token_hash) DO NOTHING`, [
        invitation.tokenHash,
        invitation.name,
        invitation.role,
        invitation.email ?? null,
        invitation.createdBy,
        invitation.createdAt,
        invitation.expiresAt,
      ]);
      return rowCount === 1;
    },
    async listInvitations(now) {
      const { rows } = await state.query<InvitationRow>(`SELECT ${INVITATION_COLUMNS} FROM admin_invitations WHERE expires_at > $1 ORDER BY created_at DESC, token_hash`, [now]);
      return rows.map(invitationOf);
    },
    async takeInvitation(tokenHash, now) {
      // Expired invitations can never be taken: they go with any taking.
      await state.query('DELETE FROM admin_invitations WHERE expires_at <= $1', [now]);
      const { rows } = await state.query<InvitationRow>(`DELETE FROM admin_invitations WHERE token_hash = $1 AND expires_at > $2 RETURNING ${INVITATION_COLUMNS}`, [tokenHash, now]);
      return rows[0] && invitationOf(rows[0]);
    },
    async dropInvitation(tokenHash) {
      const { rowCount } = await state.query('DELETE FROM admin_invitations WHERE token_hash = $1', [tokenHash]);
      return rowCount === 1;
    },
    async audit(event) {
      await state.query('INSERT INTO admin_audit (at, user_name, event, subject, network) VALUES ($1, $2, $3, $4, $5)', [
        event.at,
        event.user ?? null,
        event.event,
        event.subject ?? null,
        event.network ?? null,
      ]);
    },
    async listAudit(limit, offset = 0) {
      if (limit <= 0) return [];
      const { rows } = await state.query<AuditRow>('SELECT at, user_name, event, subject, network FROM admin_audit ORDER BY id DESC LIMIT $1 OFFSET $2', [
        limit,
        Math.max(0, offset),
      ]);
      return rows.map(auditEventOf);
    },
  };
}

/** Said by updateOnce when the row it found missing was inserted meanwhile: the transaction is run again. */
const INSERT_RACE = Symbol('insert race');

async function updateOnce(
  query: TransactionQuery,
  name: string,
  change: (current: StoredAccount | undefined) => StoredAccount | undefined,
): Promise<StoredAccount | undefined | typeof INSERT_RACE> {
  const { rows } = await query<UserRow>(`SELECT ${USER_COLUMNS} FROM admin_users WHERE name = $1 FOR UPDATE`, [name]);
  const current = rows[0] && accountOf(rows[0]);
  const next = change(current);
  if (!next) return undefined;
  const stored: StoredAccount = { ...next, name };
  if (current) {
    await query('UPDATE admin_users SET role = $2, email = $3, password_hash = $4, generation = $5, totp = $6, passkeys = $7, created_at = $8, devices = $9, config_hash_tag = $10 WHERE name = $1', valuesOf(stored));
    return stored;
  }
  const { rowCount } = await query(`INSERT INTO admin_users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (name) DO NOTHING`, valuesOf(stored));
  return rowCount === 1 ? stored : INSERT_RACE;
}

/** The columns of USER_COLUMNS, in order; jsonb values go as JSON text (pg would send an array as a PostgreSQL array). */
function valuesOf(account: StoredAccount): unknown[] {
  return [
    account.name,
    account.role ?? null,
    account.email ?? null,
    account.passwordHash ?? null,
    account.generation,
    account.totp ? JSON.stringify(account.totp) : null,
    JSON.stringify(account.passkeys ?? []),
    account.createdAt,
    account.devices ? JSON.stringify(account.devices) : null,
    account.configHashTag ?? null,
  ];
}

function accountOf(row: UserRow): StoredAccount {
  return {
    name: row.name,
    ...(row.role !== null && { role: row.role }),
    ...(row.email !== null && { email: row.email }),
    ...(row.password_hash !== null && { passwordHash: row.password_hash }),
    generation: Number(row.generation),
    ...(row.totp !== null && { totp: row.totp }),
    passkeys: row.passkeys,
    createdAt: Number(row.created_at),
    ...(row.devices !== null && { devices: row.devices }),
    ...(row.config_hash_tag !== null && { configHashTag: row.config_hash_tag }),
  };
}

function invitationOf(row: InvitationRow): Invitation {
  return {
    tokenHash: row.token_hash,
    name: row.name,
    role: row.role,
    ...(row.email !== null && { email: row.email }),
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

function auditEventOf(row: AuditRow): AuditEvent {
  return {
    at: Number(row.at),
    ...(row.user_name !== null && { user: row.user_name }),
    event: row.event,
    ...(row.subject !== null && { subject: row.subject }),
    ...(row.network !== null && { network: row.network }),
  };
}
