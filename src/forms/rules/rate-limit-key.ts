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

/**
 * A key as numbers, for the in-memory buckets (src/forms/rules/bucket-table.ts): its kind (an IPv4 address, or an
 * IPv6 network and its prefix length) and up to 64 bits. Two texts never share a packed key: only the spelling
 * createRateLimitKey gives is packed, and it spells back exactly (keyText).
 */
export interface PackedKey {
  kind: number;
  /** The first 32 bits of an IPv6 network; 0 for IPv4. */
  high: number;
  /** An IPv4 address, or bits 32-63 of an IPv6 network (unsigned). */
  low: number;
}

/** The kind of a packed IPv4 address; an IPv6 network of P bits (0 to 64) is NETWORK_KIND + P. */
export const IPV4_KIND = 1;
const NETWORK_KIND = 2;
/** The longest IPv6 network packed: its bits fit in 64. Longer ones (up to /128, the address) stay text. */
const PACKED_PREFIX_MAX = 64;

/**
 * Packs `text` into `into` when it is a key as createRateLimitKey spells it: a dotted IPv4 address (no leading
 * zeros), or an IPv6 network of at most 64 bits in the RFC 5952 form ("2001:db8:1:2::/64": lower case, no
 * leading zeros, the longest run of zero groups compressed, the leftmost of equal runs) with no bit set past its
 * prefix. Any other text (an /128 address, "unknown", another spelling of a network) is false: it stays text.
 */
export function packKey(text: string, into: PackedKey): boolean {
  return text.includes(':') ? packNetwork(text, into) : packIPv4(text, into);
}

/** The text `packKey` packed into (kind, high, low). */
export function keyText(kind: number, high: number, low: number): string {
  if (kind === IPV4_KIND) return `${low >>> 24}.${(low >>> 16) & 255}.${(low >>> 8) & 255}.${low & 255}`;
  const groups = [high >>> 16, high & 0xffff, low >>> 16, low & 0xffff, 0, 0, 0, 0];
  const run = longestZeroRun(groups);
  const start = run >> 4;
  const length = run & 15;
  const hex = (from: number, to: number) => groups.slice(from, to).map((group) => group.toString(16)).join(':');
  const address = length < 2 ? hex(0, 8) : `${hex(0, start)}::${hex(start + length, 8)}`;
  return `${address}/${kind - NETWORK_KIND}`;
}

function packIPv4(text: string, into: PackedKey): boolean {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x2e) {
      if (digits === 0 || dots === 3) return false;
      value = value * 256 + part;
      dots += 1;
      part = 0;
      digits = 0;
    } else if (code >= 0x30 && code <= 0x39) {
      if (digits > 0 && part === 0) return false; // a leading zero: another spelling
      part = part * 10 + (code - 0x30);
      digits += 1;
      if (part > 255) return false;
    } else {
      return false;
    }
  }
  if (digits === 0 || dots !== 3) return false;
  into.kind = IPV4_KIND;
  into.high = 0;
  into.low = value * 256 + part;
  return true;
}

/** Groups of the network being packed (reused: packing runs on every take). */
const parsed = [0, 0, 0, 0, 0, 0, 0, 0];

function packNetwork(text: string, into: PackedKey): boolean {
  const slash = text.lastIndexOf('/');
  const prefix = decimalAt(text, slash + 1);
  if (slash < 2 || prefix < 0 || prefix > PACKED_PREFIX_MAX) return false;
  // The groups as written, and where "::" stands (gap: the number of groups before it).
  let count = 0;
  let gap = -1;
  let at = 0;
  if (text.charCodeAt(0) === 0x3a) {
    if (text.charCodeAt(1) !== 0x3a) return false;
    gap = 0;
    at = 2;
  }
  while (at < slash) {
    if (count === 8) return false;
    let group = 0;
    const first = at;
    for (; at < slash && at - first < 5; at += 1) {
      const digit = hexDigit(text.charCodeAt(at));
      if (digit < 0) break;
      group = group * 16 + digit;
    }
    const length = at - first;
    // One to four digits, without a leading zero.
    if (length === 0 || length > 4 || (length > 1 && text.charCodeAt(first) === 0x30)) return false;
    parsed[count++] = group;
    if (at === slash) break;
    if (text.charCodeAt(at) !== 0x3a) return false;
    at += 1;
    if (text.charCodeAt(at) === 0x3a) {
      if (gap >= 0) return false;
      gap = count;
      at += 1;
    } else if (at === slash) {
      return false; // a trailing single ":"
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false;
  if (gap >= 0) {
    // Move the groups after "::" to the end and fill the gap with zeros.
    const zeros = 8 - count;
    for (let index = count - 1; index >= gap; index -= 1) parsed[index + zeros] = parsed[index] as number;
    for (let index = gap; index < gap + zeros; index += 1) parsed[index] = 0;
  }
  // The canonical spelling compresses exactly the longest (leftmost) run of two or more zero groups.
  const run = longestZeroRun(parsed);
  if (gap < 0 ? (run & 15) >= 2 : count > 6 || run !== ((gap << 4) | (8 - count))) return false;
  if ((parsed[4] as number) | (parsed[5] as number) | (parsed[6] as number) | (parsed[7] as number)) return false;
  const high = (((parsed[0] as number) << 16) | (parsed[1] as number)) >>> 0;
  const low = (((parsed[2] as number) << 16) | (parsed[3] as number)) >>> 0;
  // No bit past the prefix: "2001:db8::1:0:0:0/32" is not how a /32 network is spelled.
  if (prefix < 64 && (prefix <= 32 ? (high & ~maskOf(prefix)) !== 0 || low !== 0 : (low & ~maskOf(prefix - 32)) !== 0)) return false;
  into.kind = NETWORK_KIND + prefix;
  into.high = high;
  into.low = low;
  return true;
}

/** The 32-bit mask of the first `bits` bits (0 to 32). */
function maskOf(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/** The first longest run of zero groups as start << 4 | length (length 0 when there is none); no array made. */
function longestZeroRun(values: readonly number[]): number {
  let bestStart = 0;
  let bestLength = 0;
  for (let index = 0; index < values.length; ) {
    if (values[index] !== 0) {
      index += 1;
      continue;
    }
    const start = index;
    while (index < values.length && values[index] === 0) index += 1;
    if (index - start > bestLength) {
      bestStart = start;
      bestLength = index - start;
    }
  }
  return (bestStart << 4) | bestLength;
}

/** A lower-case hex digit's value, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/** The whole number written from `at` to the end of `text` without a leading zero, or -1. */
function decimalAt(text: string, at: number): number {
  if (at >= text.length || at === 0 || text.length - at > 3 || (text.length - at > 1 && text.charCodeAt(at) === 0x30)) return -1;
  let value = 0;
  for (let index = at; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) return -1;
    value = value * 10 + (code - 0x30);
  }
  return value;
}
