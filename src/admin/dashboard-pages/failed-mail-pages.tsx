// /admin/failed (docs/admin.md "Failed mail"): the queue's given-up messages as `postbox queue list` shows them
// (id, kind, form, age, tries, last error; never an address), "Retry" for one and "Retry all". A retried message
// is written back as a new segment, which a running serve picks up on its next rescan (every 2 seconds).
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import type { QueueOwnerStore } from '../../queue/store.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { FailedMailPage, toFailedRow } from './failed-mail-views.js';
import { noticeOf } from './notices.js';

export const FAILED_PATH = '/admin/failed';

export function createFailedMailPages(deps: { queue?: QueueOwnerStore; clock: Clock; logger: Logger }): AdminRoute[] {
  const { queue, clock, logger } = deps;

  const list: AdminPage = async (request, session) => {
    const now = clock();
    const rows = queue ? (await queue.listFailed()).reverse().map((message) => toFailedRow(message, now)) : undefined;
    return htmlAnswer(200, <FailedMailPage session={session} rows={rows} notice={noticeOf(request.query)} />);
  };

  const retry: AdminPage = async (request, session) => {
    if (!queue) return redirectAnswer(FAILED_PATH);
    const now = clock();
    if (request.form?.fields.get('all') === 'yes') {
      let count = 0;
      for (const message of await queue.listFailed()) if (await queue.retryFailed(message.id, now)) count += 1;
      logger.info({ event: 'admin_mail_retried_all', user: session.user, count }, 'failed mail put back');
      return redirectAnswer(`${FAILED_PATH}?notice=retried_all`);
    }
    const id = request.form?.fields.get('id') ?? '';
    if (!(await queue.retryFailed(id, now))) return redirectAnswer(`${FAILED_PATH}?notice=missing`);
    logger.info({ event: 'admin_mail_retried', user: session.user, id }, 'failed mail put back');
    return redirectAnswer(`${FAILED_PATH}?notice=retried`);
  };

  return [{ path: FAILED_PATH, methods: { GET: list, POST: retry } }];
}
