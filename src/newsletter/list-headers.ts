// The unsubscribe link and list headers every mail to a subscriber carries (docs/newsletter.md "Leaving the
// list"; RFC 2369 List-Unsubscribe, RFC 8058 one-click, RFC 2919 List-Id). Pure: the token comes in.
import type { NewsletterForm, NewsletterList } from '../config/config.js';
import type { MailList } from '../ports.js';

/** `<public_url><form_path>/unsubscribe?token=<token>`. */
export function unsubscribeLink(form: NewsletterForm, token: string): string {
  return `${form.unsubscribe_url}?token=${encodeURIComponent(token)}`;
}

/** `name`'s words, then the host of `url`: a List-Id (RFC 2919) such as `newsletter.forms.example.com`. */
function listIdFrom(name: string, url: string): string {
  const label = name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'newsletter';
  return `${label}.${new URL(url).hostname}`;
}

/** The `list` part of a MailMessage for a mail to one subscriber. */
export function listHeaders(form: NewsletterForm, token: string): MailList {
  return { id: listIdFrom(form.path, form.unsubscribe_url), unsubscribeUrl: unsubscribeLink(form, token) };
}

/**
 * The `list` part of a mail of a list declared without a form (docs/newsletter.md "Leaving the list"): its
 * unsubscribe link is the preference page with the list named, `<preferences_url>?token=<token>&list=<id>`, whose
 * one-click POST leaves that list alone. `preferencesToken` is the address's preference token.
 */
export function listHeadersWithoutForm(list: Pick<NewsletterList, 'id'>, preferencesUrl: string, preferencesToken: string): MailList {
  return {
    id: listIdFrom(list.id, preferencesUrl),
    unsubscribeUrl: `${preferencesUrl}?${new URLSearchParams({ token: preferencesToken, list: list.id }).toString()}`,
  };
}
