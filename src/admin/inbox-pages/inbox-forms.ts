// Which forms have an inbox, how a form is named in an inbox address, and the page a query asks for. Pure: the
// pages (inbox-pages.tsx) do the reading.
import type { FormConfig, MessageForm } from '../../config/config.js';

/** Submissions on one page of a form's inbox (docs/admin.md "Inbox"). */
export const PAGE_SIZE = 50;

/** A page number past this is read as this one: the inbox reads back that far at most. */
const LAST_PAGE = 100_000;

/** A message form that archives its submissions: the only kind with an inbox. */
export type ArchivedForm = MessageForm & { archive: string };

export function isArchivedForm(form: FormConfig): form is ArchivedForm {
  return form.type !== 'newsletter' && form.archive !== undefined;
}

/**
 * The form's name in /admin/inbox/<key>: its path without the leading "/", each further "/" written ":" (a form
 * path never holds ":", and the key stays one path segment). The root path "/" is ":".
 */
export function inboxKeyOf(formPath: string): string {
  return formPath.slice(1).replaceAll('/', ':') || ':';
}

/** The archived form `key` names, or undefined. */
export function findArchivedForm(forms: readonly FormConfig[], key: string): ArchivedForm | undefined {
  return forms.filter(isArchivedForm).find((form) => inboxKeyOf(form.path) === key);
}

/** The page `?page=` asks for: a whole number from 1; anything else is the first page. */
export function pageNumberOf(value: string | null): number {
  if (value === null || !/^\d{1,7}$/.test(value)) return 1;
  return Math.min(Math.max(Number(value), 1), LAST_PAGE);
}

/** The start of a message for the list: its first `length` characters, blanks folded. */
export function excerptOf(message: string | undefined, length = 80): string {
  const text = (message ?? '').replace(/\s+/g, ' ').trim();
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** The query string of a list page: the search and the page, each only when it says something. */
export function listQueryOf(query: string, page: number): string {
  const parameters = new URLSearchParams();
  if (query !== '') parameters.set('q', query);
  if (page > 1) parameters.set('page', String(page));
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}

/** A file name for the export: the key with anything but letters, digits, ".", "_" and "-" made "-". */
export function exportFileNameOf(key: string): string {
  return `${key.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'form'}-submissions.csv`;
}
