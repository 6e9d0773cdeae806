// Host names and listen addresses of the configuration (docs/configuration.md, `listen` and `mail.smtp.host`):
// checked when the file is read, so that a typo stops `postbox check` instead of a listen or a mail failing later.
import { isIP, isIPv6 } from 'node:net';
import { z } from 'zod';

// RFC 1123 section 2.1: dot-separated labels of letters, digits and inner hyphens, 63 characters at most each.
const HOST_NAME = /^(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** Whether `value` is an IP address or a host name; digits and dots alone must make an IPv4 address. */
export function isHost(value: string): boolean {
  if (isIP(value) !== 0) return true;
  return HOST_NAME.test(value) && !/^[\d.]+$/.test(value);
}

/** The "any address" hosts: a service listening on one of them holds its port on every interface. */
export function isUnspecifiedHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** "host:port" or "[v6]:port" as { host, port }; port 0 asks the system for a free one. */
export const listenAddress = z.string().transform((value, context) => {
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : NaN;
  const host = match ? (match[1] ?? match[2]) : undefined;
  const hostOk = host !== undefined && (match?.[1] !== undefined ? isIPv6(host) : isHost(host) && !isIPv6(host));
  if (!match || port > 65535 || !hostOk) {
    context.addIssue({ code: 'custom', message: `must be "host:port" with an IP address or host name ("[::1]:8080" for IPv6), got "${value}"` });
    return z.NEVER;
  }
  return { host: host as string, port };
});
