// The one-line notices a page shows after its POST redirected back (`?notice=<key>`): fixed sentences chosen by
// key, so nothing from the address reaches the page.

const NOTICES: Record<string, string> = {
  removed: 'The subscriber was removed: an unsubscribed line is in the list’s log.',
  not_subscribed: 'That address was not on the list (any more); nothing changed.',
  not_saved: 'The removal could not be saved; the address is still on the list. Please try again.',
  unavailable: 'The database cannot be reached now; the address is still on the list. Please try again in a moment.',
  not_running: 'The forms service does not run in this process, so the list cannot be changed from here. Use the unsubscribe link in one of its mails instead.',
  retried: 'The message is back in the queue; a running serve sends it within seconds.',
  retried_all: 'Every failed message is back in the queue; a running serve sends them within seconds.',
  missing: 'There was no such failed message (it may have been retried already).',
};

/** The sentence for the `notice` of `query`, or undefined. */
export function noticeOf(query: string): string | undefined {
  const key = new URLSearchParams(query).get('notice');
  return key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined;
}
