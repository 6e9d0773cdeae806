// The "Bounces" page (docs/admin.md "Bounces"): the suppressed addresses, newest first, each with why it is there
// (a hard bounce, soft bounces, a complaint), when, the reason the report gave and where it came from, and a
// "Remove" button; the CSV download of the whole list.
import type { Suppression, SuppressionKind } from '../../bounces/bounce-store.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';
import { RowButton } from '../views/row-button.js';
import { Time } from '../views/time.js';

export const BOUNCES_PATH = '/admin/bounces';
export const BOUNCES_CSV_PATH = '/admin/bounces.csv';

/** The rows a page shows at most; the CSV has every one. */
export const SHOWN_ROWS = 1_000;

const KIND_LABELS: Record<SuppressionKind, string> = { hard: 'Hard bounce', soft: 'Soft bounces', complaint: 'Complaint' };

/** The one-line notices after "Remove" (`?notice=<key>`): fixed sentences chosen by key, nothing from the address. */
const NOTICES: Record<string, string> = {
  removed: 'The address was taken off the suppression list: mail to it is sent again, and its soft bounces count from zero.',
  missing: 'That address was not on the suppression list (any more); nothing changed.',
};

/** The sentence for `key`, or undefined. */
export function bouncesNoticeOf(key: string | null): string | undefined {
  return key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined;
}

export interface BouncesPageProps {
  session: AdminSession;
  /** Every suppressed address, newest first. */
  suppressed: readonly Suppression[];
  notice?: string;
}

export function BouncesPage({ session, suppressed, notice }: BouncesPageProps) {
  const shown = suppressed.slice(0, SHOWN_ROWS);
  return (
    <Layout title="Bounces" session={session} section="bounces">
      <h1>Bounces</h1>
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>
        Addresses whose mail bounced for good, bounced again and again, or whose owner marked a mail as spam. Receipts, confirmations and newsletter mails are
        not sent to them; mail to your own addresses always is. Remove an address once it works again.
      </p>
      {suppressed.length === 0 ? (
        <p>No address is suppressed.</p>
      ) : (
        <>
          <p>
            <a class="admin-button-link" href={BOUNCES_CSV_PATH} download>
              Download CSV
            </a>
          </p>
          <AdminTable
            caption={shown.length < suppressed.length ? `The newest ${shown.length} of ${suppressed.length} suppressed addresses (the CSV has them all)` : `${suppressed.length} suppressed, newest first`}
            headings={['Address', 'Kind', 'Since', 'Reason', 'Source', <span class="admin-visually-hidden">Action</span>]}
          >
            {shown.map((entry) => (
              <tr key={entry.address}>
                <td>{entry.address}</td>
                <td>{KIND_LABELS[entry.kind] ?? entry.kind}</td>
                <td>
                  <Time at={entry.at} zone={session.timeZone} />
                </td>
                <td>{entry.reason}</td>
                <td>{entry.source}</td>
                <td>
                  <RowButton session={session} action={BOUNCES_PATH} name="address" value={entry.address} label="Remove" rowName={entry.address} />
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </Layout>
  );
}
