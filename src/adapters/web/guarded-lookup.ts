// The address check of Postbox's outgoing requests to other servers (webmentions, ActivityPub): a socket lookup that
// resolves the host name once, refuses it when any of its addresses is not public (unless private ones are allowed),
// and hands the socket those same addresses, so the address checked is the address connected to. An address
// literal is never looked up, so it is checked on its own (`isRefusedLiteral`).
import { lookup as lookupAll } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../kit/public-address.js';

/** Every address of a host name, as the system resolver gives them. */
export type ResolveName = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const resolveWithSystem: ResolveName = (hostname) => lookupAll(hostname, { all: true });

/** A lookup that answers only with checked addresses; a refused name fails the connection with `refuse()`. */
export function createGuardedLookup(allowPrivate: boolean, resolveName: ResolveName, refuse: () => Error): LookupFunction {
  return (hostname, options, callback) => {
    resolveName(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 4);
        if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) return callback(refuse(), '', 4);
        if (options.all) return (callback as unknown as (error: null, all: typeof addresses) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}

/** Whether a URL's host is an address literal that is not public while private ones are not allowed. */
export function isRefusedLiteral(url: URL, allowPrivate: boolean): boolean {
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 && !allowPrivate && !isPublicAddress(bare);
}
