// The addresses of the subscribers pages: /admin/subscribers plus the form's path ("/newsletter" gives
// /admin/subscribers/newsletter), so a form path needs no escaping of its own.

export const SUBSCRIBERS_PATH = '/admin/subscribers';

/** The page of the newsletter form at `formPath`. */
export function subscribersPathOf(formPath: string): string {
  return `${SUBSCRIBERS_PATH}${formPath}`;
}

/** The form path a page address names, or undefined when it names none. */
export function formPathOf(pagePath: string): string | undefined {
  const rest = pagePath.slice(SUBSCRIBERS_PATH.length);
  return rest.startsWith('/') && rest.length > 1 ? rest : undefined;
}
