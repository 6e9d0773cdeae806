// Leaving the list (docs/newsletter.md "Leaving the list"): a valid token appends an `unsubscribed` line; doing
// it twice is harmless (the fold drops an address that is not there). Logs carry the form, never the address.
import type { NewsletterForm } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { Clock, MailList } from '../ports.js';
import { safeReason } from '../kit/safe-reason.js';
import { listHeaders, unsubscribeLink } from './list-headers.js';
import type { NewsletterStore } from './newsletter-store.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import { createUnsubscribeToken, readUnsubscribeToken } from './unsubscribe-token.js';
import type { RemoveOutcome, UnsubscribeOutcome } from './types.js';

export interface Unsubscribing {
  isValid(form: NewsletterForm, token: string | undefined): Promise<boolean>;
  unsubscribe(form: NewsletterForm, token: string | undefined): Promise<UnsubscribeOutcome>;
  remove(form: NewsletterForm, email: string, by?: 'admin' | 'complaint'): Promise<RemoveOutcome>;
  unsubscribeLinkFor(form: NewsletterForm, email: string): Promise<string>;
  listHeadersFor(form: NewsletterForm, email: string): Promise<MailList>;
}

/** Records the `unsubscribed` event of `email`; `by` says who asked, for the log. UnavailableError goes up (503). */
async function leaveList(store: NewsletterStore, clock: Clock, logger: Logger, form: NewsletterForm, email: string, by: 'link' | 'admin' | 'complaint'): Promise<RemoveOutcome> {
  try {
    if (!(await store.unsubscribe(form, email, new Date(clock()).toISOString()))) return 'not_subscribed';
  } catch (error) {
    if (error instanceof UnavailableError) throw error;
    logger.error({ event: 'unsubscribe_write_failed', form: form.path, reason: safeReason(error) }, 'could not save an unsubscription');
    return 'not_saved';
  }
  logger.info({ event: 'unsubscribed', form: form.path, by }, 'address left the list');
  return 'removed';
}

/** Unsubscribe links and their redemption over the store's secret and subscriber list. */
export function createUnsubscribing(store: NewsletterStore, clock: Clock, logger: Logger): Unsubscribing {
  const leave = (form: NewsletterForm, email: string, by: 'link' | 'admin' | 'complaint') => leaveList(store, clock, logger, form, email, by);
  return {
    isValid: async (form, token) => readUnsubscribeToken(await store.secret(), form.path, token) !== undefined,
    async unsubscribe(form, token) {
      const email = readUnsubscribeToken(await store.secret(), form.path, token);
      if (email === undefined) {
        logger.info({ event: 'unsubscribe_rejected', form: form.path }, 'bad unsubscribe token');
        return 'bad_token';
      }
      const outcome = await leave(form, email, 'link');
      return outcome === 'not_saved' ? 'not_saved' : 'unsubscribed';
    },
    remove: (form, email, by = 'admin') => leave(form, email, by),
    unsubscribeLinkFor: async (form, email) => unsubscribeLink(form, createUnsubscribeToken(await store.secret(), form.path, email)),
    listHeadersFor: async (form, email) => listHeaders(form, createUnsubscribeToken(await store.secret(), form.path, email)),
  };
}
