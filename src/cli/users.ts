// `postbox users list | add NAME --role ROLE [--email ADDRESS] | remove NAME | reset-password NAME` (docs/admin.md
// "Users and roles"): the users of /admin beyond the config's `[admin] users`, in the backend's account store
// (data_dir/admin-users.json, or the admin_users table), changed beside a running `serve`, which sees a change
// within a second. The config's users are listed but never added, removed or given a password here. Every change
// is written to the audit log with the network "cli".
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { Backend } from '../adapters/backend.js';
import type { AccountStore } from '../admin/accounts/account-store.js';
import { isRole, ROLES, type Role, type StoredAccount } from '../admin/accounts/account.js';
import { createAccounts } from '../admin/accounts/accounts.js';
import { lookAlikeOf, MAX_NAME_LENGTH, nameProblem as newNameProblem } from '../admin/accounts/user-names.js';
import type { AdminUser, Config } from '../config/config.js';
import { isEmailAddress } from '../kit/email-address.js';
import { DEFAULT_SCRYPT, hashPassword, MIN_PASSWORD_LENGTH, SALT_BYTES } from '../kit/password-hash.js';

export const USERS_USAGE = `  postbox users list [--config FILE]
                                  the users of /admin: name, role, where each is set, email,
                                  second factors
  postbox users add NAME --role owner|editor|author [--email ADDRESS] [--config FILE]
                                  add a user; asks for their password (12 characters or more)
  postbox users remove NAME [--config FILE]
                                  remove a user; their sessions end
  postbox users reset-password NAME [--config FILE]
                                  set a new password for a user; their sessions end
`;

/** The scrypt parameters of a password set here: about 128 MiB and a few hundred milliseconds per check. */

export interface UsersCommandIo {
  out(text: string): void;
  error(text: string): void;
  /** A new password: typed twice without echo at a terminal, else the first line of stdin (hash-password.ts). */
  readPassword(): Promise<string | { problem: string }>;
  now(): number;
  randomBytes?(size: number): Buffer;
}

/** A users command line, read. */
export type UsersCommand =
  | { action: 'list' }
  | { action: 'add'; name: string; role: Role; email?: string }
  | { action: 'remove'; name: string }
  | { action: 'reset-password'; name: string };

/** `args`, `--role` and `--email` as a UsersCommand, or what is wrong with them; nothing is read yet. */
export function parseUsersCommand(args: readonly string[], options: { role: string | undefined; email: string | undefined }): UsersCommand | { problem: string } {
  const [action, name, ...rest] = args;
  if (rest.length > 0) return { problem: `unexpected "${rest.join(' ')}"` };
  const onlyForAdd = options.role !== undefined ? '--role' : options.email !== undefined ? '--email' : undefined;
  switch (action) {
    case 'list':
      if (name !== undefined) return { problem: 'users list takes no NAME' };
      return onlyForAdd ? { problem: `${onlyForAdd} goes with users add` } : { action };
    case 'remove':
    case 'reset-password': {
      if (name === undefined) return { problem: `users ${action} needs a NAME` };
      if (onlyForAdd) return { problem: `${onlyForAdd} goes with users add` };
      const problem = nameProblem(name);
      return problem ? { problem } : { action, name };
    }
    case 'add': {
      if (name === undefined) return { problem: 'users add needs a NAME' };
      const problem = nameProblem(name);
      if (problem) return { problem };
      if (options.role === undefined) return { problem: `users add needs --role ${ROLES.join('|')}` };
      if (!isRole(options.role)) return { problem: `--role is ${ROLES.join(', ')}, not "${options.role}"` };
      if (options.email !== undefined && !isEmailAddress(options.email)) return { problem: `--email must be one mail address, not "${options.email}"` };
      return { action, name, role: options.role, ...(options.email !== undefined && { email: options.email }) };
    }
    default:
      return { problem: action === undefined ? 'users needs list, add, remove or reset-password' : `unknown users command "${action}"` };
  }
}

/** What is wrong with a user name, as `[admin] users` checks it: one line, trimmed, at most 100 characters. */
function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'a user NAME must not be blank';
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return 'a user NAME must be one line, without control characters';
  if (name !== name.trim()) return 'a user NAME must not begin or end with white space';
  if (name.length > MAX_NAME_LENGTH) return `a user NAME must be at most ${MAX_NAME_LENGTH} characters`;
  return undefined;
}

/**
 * Runs one users command on the backend the command opened; the exit code: 0 done, 1 refused (a user of the
 * configuration, a name taken, a password too short) or not found, or the records cannot be reached.
 */
export async function runUsersCommand(command: UsersCommand, config: Pick<Config, 'admin'>, backend: Pick<Backend, 'accounts' | 'ready'>, io: UsersCommandIo): Promise<number> {
  const configUsers = config.admin?.users ?? [];
  if (command.action !== 'list' && configUsers.some((user) => user.name === command.name)) {
    io.error(
      command.action === 'reset-password'
        ? `postbox: ${command.name} is set in the configuration ([admin] users): make a new hash with "postbox hash-password" and replace it there\n`
        : command.action === 'add'
          ? `postbox: ${command.name} is set in the configuration ([admin] users) already\n`
          : `postbox: ${command.name} is set in the configuration ([admin] users): remove them from there\n`,
    );
    return 1;
  }
  const ready = await backend.ready().catch((error: Error) => error);
  if (ready instanceof Error) {
    io.error(`postbox: ${ready.message}\n`);
    return 1;
  }
  const store = backend.accounts;
  switch (command.action) {
    case 'list': {
      const accounts = await createAccounts(configUsers, store).list();
      io.out(formatUsers(accounts));
      return 0;
    }
    case 'add': {
      if ((await store.get(command.name))?.role) return taken(command.name, io);
      // The rules of an invitation's name: one script, no invisible characters, no look-alike of a name in use.
      const refused = newNameProblem(command.name) ?? (await lookAlikeProblem(command.name, configUsers, store, io.now()));
      if (refused) {
        io.error(`postbox: ${command.name}: ${refused}\n`);
        return 1;
      }
      const passwordHash = await newPasswordHash(io);
      if (passwordHash === undefined) return 1;
      const now = io.now();
      // A record without a role is what a user of the configuration left (their generation, second factors): the
      // new user starts a generation later, so no session of the old one counts, and without their second factors.
      const stored = await store.update(command.name, (current) =>
        current?.role
          ? undefined
          : {
              name: command.name,
              role: command.role,
              ...(command.email !== undefined && { email: command.email }),
              passwordHash,
              generation: current ? current.generation + 1 : 0,
              passkeys: [],
              createdAt: now,
            },
      );
      if (!stored) return taken(command.name, io);
      await store.audit({ at: now, event: 'user_added', subject: command.name, network: 'cli' });
      io.out(`${command.name}: added as ${command.role}\n`);
      return 0;
    }
    case 'remove': {
      if (!(await store.get(command.name))?.role || !(await store.remove(command.name))) return notFound(command.name, io);
      await store.audit({ at: io.now(), event: 'user_removed', subject: command.name, network: 'cli' });
      io.out(`${command.name}: removed; their sessions have ended\n`);
      return 0;
    }
    case 'reset-password': {
      if (!(await store.get(command.name))?.role) return notFound(command.name, io);
      const passwordHash = await newPasswordHash(io);
      if (passwordHash === undefined) return 1;
      const stored = await store.update(command.name, (current): StoredAccount | undefined =>
        current?.role ? { ...current, passwordHash, generation: current.generation + 1 } : undefined,
      );
      if (!stored) return notFound(command.name, io);
      await store.audit({ at: io.now(), event: 'password_reset', subject: command.name, network: 'cli' });
      io.out(`${command.name}: new password set; their sessions have ended\n`);
      return 0;
    }
  }
}

/** Reads a new password and hashes it; undefined (with the problem told) when none or a short one is given. */
async function newPasswordHash(io: UsersCommandIo): Promise<string | undefined> {
  const password = await io.readPassword();
  if (typeof password !== 'string') {
    io.error(`postbox: ${password.problem}\n`);
    return undefined;
  }
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    io.error(`postbox: a password needs at least ${MIN_PASSWORD_LENGTH} characters\n`);
    return undefined;
  }
  return hashPassword(password, (io.randomBytes ?? cryptoRandomBytes)(SALT_BYTES), DEFAULT_SCRYPT);
}

/** Why `name` looks like the name of a user or an open invitation, or undefined. */
async function lookAlikeProblem(name: string, configUsers: readonly AdminUser[], store: AccountStore, now: number): Promise<string | undefined> {
  const users = await createAccounts(configUsers, store).list();
  const user = lookAlikeOf(name, users.map((account) => account.name));
  if (user !== undefined) return `The name differs from the user ${user} only by case or by look-alike letters.`;
  const invited = lookAlikeOf(name, (await store.listInvitations(now)).map((invitation) => invitation.name));
  return invited === undefined ? undefined : `The name differs from the open invitation of ${invited} only by case or by look-alike letters.`;
}

function taken(name: string, io: UsersCommandIo): number {
  io.error(`postbox: there is a user ${name} already ("postbox users reset-password ${name}" sets a new password)\n`);
  return 1;
}

function notFound(name: string, io: UsersCommandIo): number {
  io.error(`postbox: no user ${name} in the store ("postbox users list" shows them)\n`);
  return 1;
}

/** One line per user, in columns: name, role, where it is set, email (or -), second factors (or -). */
export function formatUsers(accounts: readonly { name: string; role: Role; email?: string; fromConfig: boolean; totp?: unknown; passkeys: readonly unknown[] }[]): string {
  const rows = accounts.map((account) => {
    const factors = [...(account.totp ? ['totp'] : []), ...(account.passkeys.length > 0 ? [`${account.passkeys.length} passkey${account.passkeys.length === 1 ? '' : 's'}`] : [])];
    return [account.name, account.role, account.fromConfig ? 'configuration' : 'store', account.email ?? '-', factors.join(', ') || '-'];
  });
  const widths = [0, 1, 2, 3].map((column) => Math.max(0, ...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `${row.map((cell, column) => (column < 4 ? cell.padEnd(widths[column]!) : cell)).join('  ')}\n`).join('');
}
