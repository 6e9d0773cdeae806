// The rate-limit bucket a client address draws on (docs/submission-rules.md "Rate limit"). Pure.
//
// An IPv4 address is its own key. An IPv6 client is keyed by its network: a single connection is usually given
// a whole /64 (RFC 6177), and picks a fresh address in it at will, so a key per address would not limit it.
import ipaddr from 'ipaddr.js';

/**
 * The key function for IPv6 networks of `ipv6Prefix` bits: `2001:db8:1:2::/64` for any address in that /64,
 * the address itself at 128. IPv4 and "unknown" come back as they are without being parsed.
 */
export function createRateLimitKey(ipv6Prefix: number): (address: string) => string {
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 0 || ipv6Prefix > 128) {
    throw new RangeError(`ipv6Prefix must be a whole number from 0 to 128, got ${ipv6Prefix}`);
  }
  // The bits kept of each of the eight 16-bit groups.
  const groupMasks = Array.from({ length: 8 }, (_, group) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - group * 16));
    return (0xffff << (16 - bits)) & 0xffff;
  });
  return (address) => {
    if (!address.includes(':')) return address;
    let parsed: ipaddr.IPv6;
    try {
      parsed = ipaddr.IPv6.parse(address);
    } catch {
      return address;
    }
    // An IPv4 client seen through an IPv6 socket: its network would be ::/64, one bucket for every IPv4 client.
    if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
    if (ipv6Prefix === 128) return parsed.toRFC5952String();
    const network = new ipaddr.IPv6(parsed.parts.map((part, group) => part & (groupMasks[group] as number)));
    return `${network.toRFC5952String()}/${ipv6Prefix}`;
  };
}
