// The user examples/config.toml ships so that `npm start` can be tried at once (README.md "Admin"): its password
// is published, so a server reachable from elsewhere must not keep it.

/** The password_hash of "postbox-example-password" in examples/config.toml (a fixed salt: it is public anyway). */
export const EXAMPLE_PASSWORD_HASH = 'scrypt$N=32768,r=8,p=1$cG9zdGJveC1leGFtcGxlIQ==$b87sJZ5M4I9AHK65SEQNNhfYb0CgkPe2fdE0HjBmbso=';

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const lower = host.toLowerCase();
  return lower === 'localhost' || lower === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower);
}

/** The names of users still on the example password, when the admin listens where others can reach it. */
export function exposedExampleUsers(users: readonly { name: string; password_hash: string }[], listenHost: string): string[] {
  if (isLoopbackHost(listenHost)) return [];
  return users.filter((user) => user.password_hash === EXAMPLE_PASSWORD_HASH).map((user) => user.name);
}
