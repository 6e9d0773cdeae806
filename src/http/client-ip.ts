// Client IP per forms-service.md "Limits": the peer address, or with proxy headers trusted the first hop of
// X-Forwarded-For, then X-Real-IP, then the peer address without port.
import { isIP } from 'node:net';

type HeaderValue = string | string[] | undefined;

/** The address a request is attributed to (rate limiting, logs). */
export function resolveClientIp(
  headers: Record<string, HeaderValue>,
  peerAddress: string | undefined,
  trustProxyHeaders: boolean,
): string {
  if (trustProxyHeaders) {
    const forwarded = firstHeader(headers['x-forwarded-for'])?.split(',')[0];
    const fromForwarded = forwarded === undefined ? undefined : normalizeAddress(forwarded);
    if (fromForwarded) return fromForwarded;
    const realIp = firstHeader(headers['x-real-ip']);
    const fromRealIp = realIp === undefined ? undefined : normalizeAddress(realIp);
    if (fromRealIp) return fromRealIp;
  }
  return (peerAddress && normalizeAddress(peerAddress)) || 'unknown';
}

function firstHeader(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Strips a port and the IPv4-mapped prefix; returns undefined for anything that is not an IP. */
export function normalizeAddress(raw: string): string | undefined {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1] as string;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  if (isIP(value) === 0) return undefined;
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(value);
  return mapped ? (mapped[1] as string) : value.toLowerCase();
}

/** TEMPORARY until the proxy-addr resolver lands. */
export function createClientAddressResolver(trusted: number | boolean): (request: { socket: { remoteAddress?: string }; headers: Record<string, HeaderValue> }) => string {
  if (trusted) return (request) => resolveClientIp(request.headers, request.socket.remoteAddress, true);
  const bySocket = new WeakMap<object, string>();
  return (request) => {
    let ip = bySocket.get(request.socket);
    if (ip === undefined) bySocket.set(request.socket, (ip = resolveClientIp({}, request.socket.remoteAddress, false)));
    return ip;
  };
}
