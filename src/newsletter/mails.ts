// The two newsletter mails (docs/newsletter.md "The flow"): fixed text only. The sole submitted value they carry is the
// address, which the routes have validated as an RFC 5322 addr-spec: as recipient of the confirmation, and in
// the body (never a header) of the owner's notice, who needs to know who subscribed.
import type { NewsletterForm } from '../config/config.js';
import type { MailMessage } from '../ports.js';

/** The confirmation link: `<public_url><form_path>/confirm?token=<token>` (docs/newsletter.md). */
export function confirmationLink(confirmUrl: string, token: string): string {
  return `${confirmUrl}?token=${encodeURIComponent(token)}`;
}

/** "2024-05-03 14:00 UTC": unambiguous for any reader, whatever their time zone. */
export function formatUtc(time: number): string {
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The mail that carries the link to the address that signed up; `siteName` and the names of the lists chosen (none
 * for the form's own list alone, docs/newsletter.md "Lists") come from the configuration.
 */
export function confirmationMail(from: string, siteName: string, email: string, link: string, expiresAt: number, listNames: readonly string[] = []): MailMessage {
  return {
    from,
    to: email,
    subject: 'Please confirm your newsletter subscription',
    text: [
      `Someone, probably you, asked to subscribe this address to the newsletter of ${siteName}.`,
      ...(listNames.length > 0 ? ['', `The lists chosen: ${listNames.join(', ')}.`] : []),
      '',
      'To confirm, open this link:',
      '',
      link,
      '',
      `The link works once, until ${formatUtc(expiresAt)}.`,
      '',
      'If you did not ask for this, ignore this mail: without a confirmation nothing more is sent to you.',
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
  };
}

/** The notice to the form's owner that an address confirmed its subscription. */
export function ownerNotice(from: string, form: NewsletterForm, email: string, signedUpAt: number, subscribedAt: number): MailMessage {
  return {
    from,
    to: form.to,
    subject: `New newsletter subscriber on ${form.path}`,
    text: [
      `A new subscriber confirmed on the newsletter form ${form.path}.`,
      '',
      `Address:    ${email}`,
      `Signed up:  ${formatUtc(signedUpAt)}`,
      `Confirmed:  ${formatUtc(subscribedAt)}`,
      '',
      `The address is now a line of the subscriber log ${form.subscribers} in the data folder.`,
      '',
    ].join('\n'),
    autoSubmitted: 'auto-generated',
  };
}
