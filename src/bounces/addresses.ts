// Mail addresses as bounces carry them: inside display names, angle brackets, "rfc822;" fields, Received
// clauses and running text. Only the addresses are wanted, lower-cased, each once.

import { headersOf, type MimePart } from './mime.js';

/** An address in running text; each part bounded by what RFC 5321 allows, so that a long run without one is read once. */
const ADDRESS = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~-][A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){1,126}[A-Za-z]{2,63}/g;

/** Every address in `text`, lower-cased, each once, in order. */
export function addressesIn(text: string): string[] {
  return [...new Set([...text.matchAll(ADDRESS)].map((match) => match[0].toLowerCase()))];
}

/** The headers of a report that name where the report itself was delivered. */
const DELIVERY_HEADERS = ['to', 'cc', 'delivered-to', 'x-original-to', 'envelope-to', 'x-envelope-to', 'x-apparently-to', 'return-path'];

/**
 * Every address the report was sent to: its To and Cc, the delivery headers the receiving system added, its
 * Return-Path, and the "for <...>" clauses of its Received headers. A VERP tag (bounces+TAG@domain) is among them.
 */
export function reportAddressees(report: MimePart): string[] {
  const values = DELIVERY_HEADERS.flatMap((name) => headersOf(report, name));
  for (const received of headersOf(report, 'received')) {
    const clause = /\bfor\s+<?([^\s<>;]+@[^\s<>;]+?)>?\s*(?:;|$|\()/i.exec(received);
    if (clause) values.push(clause[1]!);
  }
  return addressesIn(values.join('\n'));
}

/** Addresses a report names that are never the failed recipient: the mail system's own mailboxes. */
export function isSystemAddress(address: string): boolean {
  return /^(?:mailer-?daemon|postmaster|mail-?daemon|mailer|abuse|noreply|no-reply|bounces?|root)@/i.test(address);
}
