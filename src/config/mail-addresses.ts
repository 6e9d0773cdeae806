// The mail addresses of the configuration (`mail.from`, `mail.to`, a form's `to`), read by nodemailer's own
// address parser when the file is loaded: a value the mailer would refuse or misread fails `postbox check`
// instead of every mail (docs/configuration.md [mail]).
import { domainToASCII } from 'node:url';
import addressParser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import { isEmailAddress } from '../kit/email-address.js';
import { isSafeAddressValue } from '../kit/header-value.js';

const NOT_AN_ADDRESS = 'must be a mail address such as "owner@example.com" or "Name <owner@example.com>"';

/**
 * Whether nodemailer's reading of an address is an RFC 5322 addr-spec (src/kit/email-address.ts). A
 * domain in another script counts in its punycode spelling, which nodemailer sends. "owner at example.com"
 * is read as a name without an address, "owner@example.com>" as an address with a ">" in it: both fail here.
 */
function isDeliverableAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = address.slice(at + 1);
  const asciiDomain = domain.startsWith('[') ? domain : domainToASCII(domain);
  return asciiDomain !== '' && isEmailAddress(`${address.slice(0, at)}@${asciiDomain}`);
}

/** The addresses `value` names, or why it names none that mail can go to. */
export function parseMailboxes(value: string): { addresses: string[] } | { problem: string } {
  // nodemailer refuses such a header value (src/adapters/mail/nodemailer-mailer.ts); a line break could add a header.
  if (!isSafeAddressValue(value)) return { problem: 'must not contain line breaks or other control characters' };
  const addresses = addressParser(value, { flatten: true }).map((entry) => entry.address);
  if (addresses.length === 0 || !addresses.every(isDeliverableAddress)) return { problem: NOT_AN_ADDRESS };
  return { addresses };
}

/** One mailbox, for the From of every mail. */
export const mailbox = z.string().superRefine((value, context) => {
  const parsed = parseMailboxes(value);
  if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
  else if (parsed.addresses.length > 1) context.addIssue({ code: 'custom', message: 'must be one address (it is the sender of every mail)' });
});

/** One or more mailboxes separated by commas, for an owner. */
export const mailboxList = z.string().superRefine((value, context) => {
  const parsed = parseMailboxes(value);
  if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
});
