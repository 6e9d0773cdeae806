// Who may sign in to /admin and what each may do (docs/admin.md "Users and roles"). The users of the config's
// `[admin] users` are owners and read-only here; the others live in the backend's account store, added with
// `postbox users add` or an invitation. A user's `generation` goes up whenever their sessions must end (a new
// password, a new role, removal, "Sign out everywhere"): a session remembers the generation it began in.

/** `owner`: everything. `editor`: every post, publishing and campaigns. `author`: their own posts. */
export type Role = 'owner' | 'editor' | 'author';

export const ROLES: readonly Role[] = ['owner', 'editor', 'author'];

/** Whether `value` names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A passkey (a WebAuthn credential) of a user. */
export interface PasskeyRecord {
  /** The credential id, base64url. */
  id: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen. */
  counter: number;
  /** What the user called it ("Laptop"). */
  label: string;
  transports?: string[];
  createdAt: number;
}

/** A TOTP second factor (RFC 6238): its secret, and the SHA-256 of each unused recovery code. */
export interface TotpRecord {
  /** Base32. */
  secret: string;
  recoveryCodeHashes: string[];
  enabledAt: number;
}

/**
 * A browser that signed in as the user (docs/admin.md "Signing in"): the SHA-256 of the random token its device
 * cookie carries, never the token.
 */
export interface DeviceRecord {
  /** SHA-256 of the token, hex. */
  hash: string;
  /** The user's generation when it was given: a device of an earlier one is not known any more. */
  generation: number;
  createdAt: number;
  /** The last sign-in from it. */
  lastUsedAt: number;
}

/**
 * What the account store keeps of a user. For a user of the config only what the config cannot hold: the
 * generation, the second factors; `role` and `passwordHash` are then absent (the config gives them).
 */
export interface StoredAccount {
  name: string;
  role?: Role;
  email?: string;
  /** The `scrypt$...` text, as `postbox hash-password` prints it. */
  passwordHash?: string;
  generation: number;
  totp?: TotpRecord;
  passkeys: PasskeyRecord[];
  createdAt: number;
  /** The browsers remembered for the user's name, newest first (at most MAX_DEVICES, ../devices.ts). */
  devices?: DeviceRecord[];
  /** For a config user: the tag of the password hash the configuration gave at the last start (accounts.ts). */
  configHashTag?: string;
}

/** A user as the admin sees them: the config's and the store's merged. */
export interface Account {
  name: string;
  role: Role;
  email?: string;
  passwordHash: string;
  generation: number;
  totp?: TotpRecord;
  passkeys: PasskeyRecord[];
  /** The remembered browsers of the user's generation now. */
  devices: DeviceRecord[];
  /** Set in `[admin] users`: shown as such, and not changed from /admin. */
  fromConfig: boolean;
  /** When the account began (0 for a config user): a session from before it is of an earlier user of the name. */
  since: number;
}

/** A single-use invitation: the SHA-256 of its token is kept, never the token. */
export interface Invitation {
  tokenHash: string;
  name: string;
  role: Role;
  email?: string;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
}

/** One line of /admin/audit. */
export interface AuditEvent {
  at: number;
  /** Who did it; absent for an anonymous attempt or a command on the server. */
  user?: string;
  /** What happened: `sign_in`, `sign_in_failed`, `password_changed`, `user_added`, ... */
  event: string;
  /** Whom or what it concerned (a user name, a post's file), when not the actor. */
  subject?: string;
  /** The client's network (an IPv4 address, an IPv6 /64), or "cli". */
  network?: string;
}
