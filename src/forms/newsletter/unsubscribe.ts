// Leaving the list (docs/newsletter.md "Leaving the list"): a valid token appends an `unsubscribed` line; doing
// it twice is harmless (the fold drops an address that is not there). Logs carry the form, never the address.
import type { NewsletterForm } from '../../config/config.js';
import type { Logger } from '../../log.js';
import type { Clock, MailList } from '../../ports.js';
import { safeReason } from '../../safe-reason.js';
import { listHeaders, unsubscribeLink } from './list-headers.js';
import type { SubscriberLogs } from './subscriber-log.js';
import { createUnsubscribeToken, readUnsubscribeToken } from './unsubscribe-token.js';
import type { UnsubscribeOutcome } from './types.js';

export interface Unsubscribing {
  isValid(form: NewsletterForm, token: string | undefined): boolean;
  unsubscribe(form: NewsletterForm, token: string | undefined): Promise<UnsubscribeOutcome>;
  unsubscribeLinkFor(form: NewsletterForm, email: string): string;
  listHeadersFor(form: NewsletterForm, email: string): MailList;
}

/** Unsubscribe links and their redemption over `secret` and the subscriber logs. */
export function createUnsubscribing(secret: Buffer, subscribers: SubscriberLogs, clock: Clock, logger: Logger): Unsubscribing {
  return {
    isValid: (form, token) => readUnsubscribeToken(secret, form.path, token) !== undefined,
    async unsubscribe(form, token) {
      const email = readUnsubscribeToken(secret, form.path, token);
      if (email === undefined) {
        logger.info({ event: 'unsubscribe_rejected', form: form.path }, 'bad unsubscribe token');
        return 'bad_token';
      }
      if (!subscribers.has(form, email)) return 'unsubscribed';
      try {
        await subscribers.unsubscribe(form, email, new Date(clock()).toISOString());
      } catch (error) {
        logger.error({ event: 'unsubscribe_write_failed', form: form.path, reason: safeReason(error) }, 'could not save an unsubscription');
        return 'not_saved';
      }
      logger.info({ event: 'unsubscribed', form: form.path }, 'address left the list');
      return 'unsubscribed';
    },
    unsubscribeLinkFor: (form, email) => unsubscribeLink(form, createUnsubscribeToken(secret, form.path, email)),
    listHeadersFor: (form, email) => listHeaders(form, createUnsubscribeToken(secret, form.path, email)),
  };
}
