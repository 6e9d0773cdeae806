// The client address a request is attributed to (rate limit, logs), per docs/configuration.md
// `trust_proxy_headers`: the connection's peer, or behind N trusted proxies the address the outermost of them
// saw. X-Forwarded-For is read from the right (the nearest proxy appends last), so whatever a client put in
// front of the trusted hops is never taken; X-Real-IP only stands in when there is no X-Forwarded-For.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/** What the resolver reads of a request: Node's IncomingMessage, or a plain object in tests. */
export interface AddressedRequest {
  socket: { remoteAddress?: string };
  headers: IncomingHttpHeaders;
}

/**
 * The resolver for `trustedHops` proxies in front of the service (0: none, the peer address). With none it
 * never reads `request.headers` (Node builds that object on first use) and works the address out once per
 * connection; otherwise the proxies' headers are read on each request.
 */
export function createClientAddressResolver(trustedHops: number): (request: AddressedRequest) => string {
  if (!Number.isInteger(trustedHops) || trustedHops < 0) throw new RangeError(`trustedHops must be a whole number >= 0, got ${trustedHops}`);
  if (trustedHops === 0) {
    const bySocket = new WeakMap<object, string>();
    return (request) => {
      if (typeof request.socket !== 'object' || request.socket === null) return 'unknown';
      let address = bySocket.get(request.socket);
      if (address === undefined) bySocket.set(request.socket, (address = peerAddressOf(request)));
      return address;
    };
  }
  // proxy-addr lists the peer as hop 0, then X-Forwarded-For from right to left: the nearest hops are trusted.
  const isTrustedHop = (_address: string, hop: number): boolean => hop < trustedHops;
  return (request) => {
    const forwarded = forwardedFor(request.headers);
    if (forwarded !== undefined) {
      // proxy-addr reads no more of a request than these two (socket.remoteAddress, headers['x-forwarded-for']).
      const seen = { socket: request.socket, headers: { 'x-forwarded-for': forwarded } } as unknown as IncomingMessage;
      const hops = proxyAddr.all(seen, isTrustedHop);
      const address = normalizeAddress(hops[hops.length - 1] as string);
      if (address) return address;
    }
    const realIp = request.headers['x-real-ip'];
    const fromRealIp = typeof realIp === 'string' ? normalizeAddress(realIp) : undefined;
    return fromRealIp ?? peerAddressOf(request);
  };
}

/** The X-Forwarded-For list when it names at least one hop; a repeated header counts as one list. */
function forwardedFor(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['x-forwarded-for'];
  const list = Array.isArray(value) ? value.join(', ') : value;
  return list !== undefined && /[^\s,]/.test(list) ? list : undefined;
}

function peerAddressOf(request: AddressedRequest): string {
  const peer = request.socket?.remoteAddress;
  return (peer !== undefined && normalizeAddress(peer)) || 'unknown';
}

/**
 * One spelling per address: a port and brackets stripped, IPv4-mapped IPv6 (`::ffff:192.0.2.1`) as IPv4,
 * IPv6 in the RFC 5952 form (lower case, zeros compressed). Undefined for anything that is not an IP.
 */
export function normalizeAddress(raw: string): string | undefined {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1] as string;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const family = isIP(value);
  if (family === 4) return value;
  if (family === 0) return undefined;
  try {
    const address = ipaddr.IPv6.parse(value);
    return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toRFC5952String();
  } catch {
    return undefined;
  }
}
