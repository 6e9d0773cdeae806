// The lists of a signup (docs/newsletter.md "Lists"): which lists a form's visitor ticked, and the subscriber logs
// a confirmation puts the address on. Pure.
import type { NewsletterForm, NewsletterList, SubscriberLogRef } from '../config/config.js';

/**
 * The ids ticked in the field `lists`: repeated (an array), or comma-separated text; blanks and repeats dropped.
 * Anything else ticks nothing.
 */
export function parseTickedLists(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.filter((part): part is string => typeof part === 'string').flatMap((part) => part.split(',')) : typeof value === 'string' ? value.split(',') : [];
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
}

/**
 * The logs a signup on `form` puts an address on: the ticked ids among those the form offers, in the order of its
 * `lists`; none of them ticked (or an id it does not offer) is the form's own list alone.
 */
export function chosenLogsOf(form: NewsletterForm, ticked: readonly string[] | undefined, lists: readonly NewsletterList[]): SubscriberLogRef[] {
  const own: SubscriberLogRef = { path: form.path, subscribers: form.subscribers };
  const wanted = new Set(ticked ?? []);
  const chosen = form.lists.filter((id) => wanted.has(id)).flatMap((id) => {
    const list = lists.find((candidate) => candidate.id === id);
    return list ? [list.log] : [];
  });
  return chosen.length > 0 ? chosen : [own];
}

/** The lists of `forms`, each form's own, for a newsletter built without the configuration's `[[newsletter.lists]]`. */
export function formListsOf(forms: readonly NewsletterForm[]): NewsletterList[] {
  return forms.map((form) => ({ id: form.list, name: form.list, description: '', public: true, form: form.path, log: { path: form.path, subscribers: form.subscribers } }));
}
