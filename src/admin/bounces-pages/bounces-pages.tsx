// /admin/bounces and /admin/bounces.csv (docs/admin.md "Bounces"), owners only: the suppression list, "Remove" of
// one address (a POST behind the admin's CSRF check; the address is looked up on the list again, never taken on
// trust), and the whole list as CSV (src/kit/csv.ts: RFC 4180, formulas defused). Logged:
// {"event":"admin_suppression_removed","user"}, never the address.
import { csvRow } from '../../kit/csv.js';
import type { BounceStore, Suppression } from '../../bounces/bounce-store.js';
import type { Logger } from '../../kit/log.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { BOUNCES_CSV_PATH, BOUNCES_PATH, BouncesPage, bouncesNoticeOf } from './bounces-views.js';

/** The columns of the CSV. */
export const BOUNCES_COLUMNS = ['address', 'kind', 'at', 'reason', 'source'] as const;

const BYTE_ORDER_MARK = '\uFEFF';

export interface BouncesPagesDeps {
  store: Pick<BounceStore, 'list' | 'remove'>;
  logger: Logger;
}

export function createBouncesPages(deps: BouncesPagesDeps): AdminRoute[] {
  const { store, logger } = deps;

  const list: AdminPage = async (request, session) => {
    const notice = bouncesNoticeOf(new URLSearchParams(request.query).get('notice'));
    return htmlAnswer(200, <BouncesPage session={session} suppressed={await store.list()} notice={notice} />);
  };

  const remove: AdminPage = async (request, session) => {
    const address = (request.form?.fields.get('address') ?? '').trim();
    if (address === '' || !(await store.remove(address))) return redirectAnswer(`${BOUNCES_PATH}?notice=missing`);
    logger.info({ event: 'admin_suppression_removed', user: session.user }, 'admin: an address was taken off the suppression list');
    return redirectAnswer(`${BOUNCES_PATH}?notice=removed`);
  };

  const exportCsv: AdminPage = async () => ({
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8; header=present', 'content-disposition': 'attachment; filename="postbox-suppressed.csv"' },
    body: BYTE_ORDER_MARK + csvRow(BOUNCES_COLUMNS) + (await store.list()).map(suppressionCsvRow).join(''),
  });

  return [
    { path: BOUNCES_PATH, methods: { GET: list, POST: remove } },
    { path: BOUNCES_CSV_PATH, methods: { GET: exportCsv } },
  ];
}

/** One CSV row: the address, its kind, since when (RFC 3339 UTC), the reason and the source. */
export function suppressionCsvRow(entry: Suppression): string {
  return csvRow([entry.address, entry.kind, new Date(entry.at).toISOString(), entry.reason, entry.source]);
}
