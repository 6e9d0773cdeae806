// The rules of /admin/users and /admin/invite that need no HTTP (docs/admin.md "Users, invitations and the audit
// log"): an invitation's token (32 random bytes, base64url; only its SHA-256 is kept),
// the link that carries it, and the mail that sends it.
import { createHash } from 'node:crypto';
import type { MailMessage, RandomBytes } from '../../ports.js';
import type { Role } from '../accounts/account.js';

/** An invitation can be accepted for this long. */
export const INVITATION_MS = 7 * 24 * 3_600_000;

/** A new invitation token: 32 random bytes, base64url (43 characters). */
export function createInvitationToken(randomBytes: RandomBytes): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a token: its SHA-256, in hex. */
export function invitationHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` could be an invitation token at all; anything else is looked up as nothing. */
export function isInvitationToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The page that accepts the invitation of `token`, on the public address of /admin. */
export function invitationLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/admin/invite?token=${token}`;
}

/** "2026-11-30 12:00 UTC". */
export function utcMinuteOf(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface InvitationMailFacts {
  from: string;
  to: string;
  /** Who invites. */
  invitedBy: string;
  name: string;
  role: Role;
  link: string;
  /** The public address of /admin's site, naming it. */
  publicUrl: string;
  expiresAt: number;
}

/** The mail that carries an invitation's link to the address the owner gave. */
export function invitationMail(facts: InvitationMailFacts): MailMessage {
  const site = hostOf(facts.publicUrl);
  return {
    from: facts.from,
    to: facts.to,
    subject: `Your invitation to the Postbox admin of ${site}`,
    text: [
      `${facts.invitedBy} invites you to the Postbox admin of ${site}, as "${facts.name}" with the role ${facts.role}.`,
      '',
      'Choose your password here:',
      facts.link,
      '',
      `The link works once, until ${utcMinuteOf(facts.expiresAt)}. If you did not expect this mail, ignore it.`,
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
