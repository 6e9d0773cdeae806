// Who a visitor is, for one day (docs/analytics.md "Visitors"): a hash of the day's random salt, the site, the
// client's network and its user agent. The salt is forgotten after two days, so a hash cannot be traced back to an
// address even by whoever reads the memory later; the network (an IPv4 /24, an IPv6 /48) is all of the address
// that is used.
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/** The network of `address` as text: an IPv4 /24 or an IPv6 /48; the address itself when it cannot be parsed. */
export function networkOf(address: string): string {
  // The common case, an IPv4 address as the socket gives it, without parsing (one per event).
  if (IPV4.test(address)) return `${address.slice(0, address.lastIndexOf('.'))}.0/24`;
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return `${(parsed as ipaddr.IPv4).octets.slice(0, 3).join('.')}.0/24`;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3);
  return `${parts.map((part) => part.toString(16)).join(':')}::/48`;
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The visitor's hash of one day: 16 bytes of SHA-256 over the salt, site, network and user agent, as hex. */
export function visitorHash(salt: Buffer, site: string, network: string, userAgent: string): string {
  return createHash('sha256').update(salt).update(`\0${site}\0${network}\0${userAgent}`).digest('hex').slice(0, 32);
}

/** The UTC day of `ms` as YYYY-MM-DD: the counts are kept by day. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
