// Whether an IP address is on the public internet: what a server may fetch for a stranger's request without
// reaching into the network it runs in (loopback, private, link-local, unique-local, multicast, reserved and the
// like are not). Pure, over ipaddr.js's ranges.
import ipaddr from 'ipaddr.js';

/** True for a public unicast address (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Whether a URL's host name is plainly not public: an IP literal that is not, or a localhost name. */
export function isPlainlyPrivateHost(hostname: string): boolean {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(bare)) return !isPublicAddress(bare);
  const name = bare.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
