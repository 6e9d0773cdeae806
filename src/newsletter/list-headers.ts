// The unsubscribe link and list headers every mail to a subscriber carries (docs/newsletter.md "Leaving the
// list"; RFC 2369 List-Unsubscribe, RFC 8058 one-click, RFC 2919 List-Id). Pure: the token comes in.
import type { NewsletterForm } from '../config/config.js';
import type { MailList } from '../ports.js';

/** `<public_url><form_path>/unsubscribe?token=<token>`. */
export function unsubscribeLink(form: NewsletterForm, token: string): string {
  return `${form.unsubscribe_url}?token=${encodeURIComponent(token)}`;
}

/** The list's identifier (RFC 2919): the form path's words, then the host of public_url, e.g. `newsletter.forms.example.com`. */
function listIdOf(form: NewsletterForm): string {
  const label = form.path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'newsletter';
  return `${label}.${new URL(form.unsubscribe_url).hostname}`;
}

/** The `list` part of a MailMessage for a mail to one subscriber. */
export function listHeaders(form: NewsletterForm, token: string): MailList {
  return { id: listIdOf(form), unsubscribeUrl: unsubscribeLink(form, token) };
}
