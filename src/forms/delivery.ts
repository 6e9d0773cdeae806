// Delivery of an accepted submission (docs/forms-api.md "Delivery"): owner mail and chat notification side by side,
// delivered when either got through, then the receipt. Counts sent / telegram_failed / send_failed /
// auto_reply_failed and logs one event line per message, naming only the form (no addresses, no text).
import type { FormConfig } from '../config/config.js';
import type { Logger } from '../log.js';
import { safeReason } from '../safe-reason.js';
import type { Metrics } from './metrics.js';
import { composeChatText, composeOwnerMail, composeReceipt, type SubmissionNotice } from './notifications.js';
import type { ChatNotifier, Mailer } from './ports.js';

export interface DeliveryDeps {
  mailer: Mailer;
  metrics: Metrics;
  logger: Logger;
  /** `mail.from`. */
  from: string;
  /** The form's chat notifier, when it has [forms.telegram]. */
  chatNotifierFor(form: FormConfig): ChatNotifier | undefined;
  siteNameFor(form: FormConfig): string;
}

export type DeliveryOutcome = 'delivered' | 'send_failed';

/** Delivers submissions; the answer waits for the receipt too, so nothing is in flight after it. */
export function createDelivery(deps: DeliveryDeps) {
  const { mailer, metrics, logger } = deps;

  return async function deliver(notice: SubmissionNotice): Promise<DeliveryOutcome> {
    const { form } = notice;
    const addresses = { from: deps.from, owner: form.to };
    const notifier = deps.chatNotifierFor(form);
    const [mail, chat] = await Promise.allSettled([
      mailer.send(composeOwnerMail(notice, addresses)),
      notifier ? notifier.send(composeChatText(notice)) : Promise.reject(new Error('no chat configured')),
    ]);

    if (mail.status === 'fulfilled') {
      metrics.count(form.path, 'sent');
      logger.info({ event: 'mail_sent', form: form.path }, 'owner mail sent');
    } else {
      logger.warn({ event: 'mail_failed', form: form.path, reason: safeReason(mail.reason) }, 'owner mail failed');
    }
    if (notifier) {
      if (chat.status === 'fulfilled') {
        logger.info({ event: 'telegram_sent', form: form.path }, 'telegram notification sent');
      } else {
        metrics.count(form.path, 'telegram_failed');
        logger.warn({ event: 'telegram_failed', form: form.path, reason: safeReason(chat.reason) }, 'telegram notification failed');
      }
    }
    if (mail.status === 'rejected' && (!notifier || chat.status === 'rejected')) {
      metrics.count(form.path, 'send_failed');
      return 'send_failed';
    }

    if (form.receipt) {
      try {
        await mailer.send(composeReceipt(notice.submission, deps.from, deps.siteNameFor(form)));
        logger.info({ event: 'receipt_sent', form: form.path }, 'receipt sent');
      } catch (error) {
        metrics.count(form.path, 'auto_reply_failed');
        logger.warn({ event: 'receipt_failed', form: form.path, reason: safeReason(error) }, 'receipt failed');
      }
    }
    return 'delivered';
  };
}
