// What /admin's dashboard and subscriber pages read of the newsletter with [state] backend = "postgres": the
// subscriber events as the lines of a log (the history folds them as it folds the file), and the live pending
// signups per form. The archives' counts come from the archive reader.
import type { DashboardSources } from '../../admin/dashboard-pages/dashboard-sources.js';
import type { PostgresState } from './state.js';

interface EventRow {
  event: 'subscribed' | 'unsubscribed';
  email: string;
  form: string;
  at: Date | null;
  signed_up_at: Date | null;
}

const iso = (time: Date | null) => (time ? time.toISOString() : '');

export function createPostgresDashboardSources(state: PostgresState): Pick<DashboardSources, 'readSubscriberLines' | 'countPending'> {
  return {
    async readSubscriberLines(form) {
      const { rows } = await state.query<EventRow>('SELECT event, email, form, at, signed_up_at FROM subscriber_events WHERE form = $1 ORDER BY id', [form.path]);
      return rows.map((row) =>
        row.event === 'subscribed'
          ? { event: 'subscribed', email: row.email, form: row.form, subscribed_at: iso(row.at), signed_up_at: iso(row.signed_up_at ?? row.at) }
          : { event: 'unsubscribed', email: row.email, form: row.form, at: iso(row.at) },
      );
    },
    async countPending(now) {
      const { rows } = await state.query<{ form: string; count: string }>('SELECT form, count(*) AS count FROM pending_signups WHERE expires_at > $1 GROUP BY form', [new Date(now)]);
      return new Map(rows.map((row) => [row.form, Number(row.count)]));
    },
  };
}
