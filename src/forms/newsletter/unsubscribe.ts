// Leaving the list (docs/newsletter.md "Leaving the list"): a valid token appends an `unsubscribed` line; doing
// it twice is harmless (the fold drops an address that is not there). Logs carry the form, never the address.
import type { NewsletterForm } from '../../config/config.js';
import type { Logger } from '../../log.js';
import type { Clock, MailList } from '../../ports.js';
import { safeReason } from '../../safe-reason.js';
import { listHeaders, unsubscribeLink } from './list-headers.js';
import type { SubscriberLogs } from './subscriber-log.js';
import { createUnsubscribeToken, readUnsubscribeToken } from './unsubscribe-token.js';
import type { RemoveOutcome, UnsubscribeOutcome } from './types.js';

export interface Unsubscribing {
  isValid(form: NewsletterForm, token: string | undefined): boolean;
  unsubscribe(form: NewsletterForm, token: string | undefined): Promise<UnsubscribeOutcome>;
  remove(form: NewsletterForm, email: string): Promise<RemoveOutcome>;
  unsubscribeLinkFor(form: NewsletterForm, email: string): string;
  listHeadersFor(form: NewsletterForm, email: string): MailList;
}

/** Appends the `unsubscribed` line of `email` (which updates the list in memory); `by` says who asked, for the log. */
async function leaveList(subscribers: SubscriberLogs, clock: Clock, logger: Logger, form: NewsletterForm, email: string, by: 'link' | 'admin'): Promise<RemoveOutcome> {
  if (!subscribers.has(form, email)) return 'not_subscribed';
  try {
    await subscribers.unsubscribe(form, email, new Date(clock()).toISOString());
  } catch (error) {
    logger.error({ event: 'unsubscribe_write_failed', form: form.path, reason: safeReason(error) }, 'could not save an unsubscription');
    return 'not_saved';
  }
  logger.info({ event: 'unsubscribed', form: form.path, by }, 'address left the list');
  return 'removed';
}

/** Unsubscribe links and their redemption over `secret` and the subscriber logs. */
export function createUnsubscribing(secret: Buffer, subscribers: SubscriberLogs, clock: Clock, logger: Logger): Unsubscribing {
  const leave = (form: NewsletterForm, email: string, by: 'link' | 'admin') => leaveList(subscribers, clock, logger, form, email, by);
  return {
    isValid: (form, token) => readUnsubscribeToken(secret, form.path, token) !== undefined,
    async unsubscribe(form, token) {
      const email = readUnsubscribeToken(secret, form.path, token);
      if (email === undefined) {
        logger.info({ event: 'unsubscribe_rejected', form: form.path }, 'bad unsubscribe token');
        return 'bad_token';
      }
      const outcome = await leave(form, email, 'link');
      return outcome === 'not_saved' ? 'not_saved' : 'unsubscribed';
    },
    remove: (form, email) => leave(form, email, 'admin'),
    unsubscribeLinkFor: (form, email) => unsubscribeLink(form, createUnsubscribeToken(secret, form.path, email)),
    listHeadersFor: (form, email) => listHeaders(form, createUnsubscribeToken(secret, form.path, email)),
  };
}
