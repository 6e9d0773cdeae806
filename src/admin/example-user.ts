// The user examples/config.toml ships so that `npm start` can be tried at once (README.md "Set-up"): its password
// is published, so a server reachable from elsewhere must not keep it.
import { adminServiceOf, type Config } from '../config/config.js';

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

/** Where /admin listens: on the blog's address when the blog serves it, else on the forms'. */
export function adminListenOf(config: Config): Config['server']['listen'] {
  return adminServiceOf(config) === 'blog' && config.blog ? config.blog.listen : config.server.listen;
}

/** What `check` (and the log of `serve`) warns about in [admin]: the published example password where others reach it. */
export function adminWarnings(config: Config): string[] {
  if (!config.admin) return [];
  const exposed = exposedExampleUsers(config.admin.users, adminListenOf(config).host);
  return exposed.map(
    (name) => `[admin] user "${name}" has the example password of examples/config.toml on a listen address other than loopback: make a new hash with "postbox hash-password"`,
  );
}
