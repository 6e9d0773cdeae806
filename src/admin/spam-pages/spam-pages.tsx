// /admin/spam (docs/admin.md "Quarantine"), like the inbox the owners' alone: the Spam view of each form, and its
// "Not spam". Every form has one, with an archive or without, newsletter forms too: whatever the spam checks take
// is kept in the quarantine of the state store (docs/spam.md "Quarantine").
//
//   GET  /admin/spam/<form>?before=<id>   the quarantined submissions of the form, newest first, 50 a page
//   POST /admin/spam/<form>               "Not spam" of the entry `id` (behind the admin's CSRF check); 303 back to
//                                         the page it was on, with a notice of what happened. With `action=delete`
//                                         the entry `id` is deleted instead, with `action=delete_all` every waiting
//                                         entry up to `up_to` (the newest the page showed); both ask first
//                                         (views/confirm-page.tsx)
//
// <form> is inboxKeyOf(form.path) (inbox-forms.ts); an unknown one is 404.
import type { FormConfig } from '../../config/config.js';
import type { SpamStore } from '../../forms/spam/quarantine.js';
import { RELEASE_STALE_MS, type ReleaseOutcome } from '../../forms/spam/release.js';
import type { Clock } from '../../ports.js';
import type { AdminPage, AdminRoute, AdminSession } from '../admin-pages.js';
import { inboxKeyOf, isArchivedForm } from '../inbox-pages/inbox-forms.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { MessagePage } from '../views/message-page.js';
import { SpamListPage, spamNoticeOf, type SpamNotice } from './spam-views.js';

/** Quarantined submissions on one page of a Spam view. */
export const SPAM_PAGE_SIZE = 50;

const PREFIX = '/admin/spam/';

/** An id as the stores make them (letters and digits); anything else is no entry. */
const ENTRY_ID = /^[0-9a-z]{1,40}$/;

/** "Not spam": delivers the entry `id` on behalf of `by` (src/forms/spam/release.ts). */
export type SpamRelease = (id: string, by: string) => Promise<ReleaseOutcome>;

export interface SpamPagesDeps {
  forms: readonly FormConfig[];
  store: Pick<SpamStore, 'list' | 'count' | 'discard'>;
  clock: Clock;
  /** Undefined when no forms service runs in this process: the view lists, and nothing is delivered from it. */
  release?: SpamRelease;
}

/** The Spam view of the form at `formPath`. */
export function spamPathOf(formPath: string): string {
  return `${PREFIX}${inboxKeyOf(formPath)}`;
}

export function createSpamPages(deps: SpamPagesDeps): AdminRoute[] {
  const { forms, store, release, clock } = deps;

  const formOf = (requestPath: string): FormConfig | undefined => {
    const key = requestPath.slice(PREFIX.length);
    return forms.find((form) => inboxKeyOf(form.path) === key);
  };

  const notFound = (session: AdminSession) =>
    htmlAnswer(404, <MessagePage title="No such form" message="No form has this address." session={session} link={{ href: '/admin/inbox', label: 'Back to the inbox' }} />);

  /** The `count` of a query: a whole number, else undefined. */
  const countOf = (value: string | null) => (value !== null && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

  /** The `before` of a query or a form: an entry id, else the first page. */
  const beforeOf = (value: string | null | undefined) => (value && ENTRY_ID.test(value) ? value : undefined);

  const show: AdminPage = async (request, session) => {
    const form = formOf(request.path);
    if (!form) return notFound(session);
    const query = new URLSearchParams(request.query);
    const before = beforeOf(query.get('before'));
    const [found, waiting] = await Promise.all([store.list(form.path, { limit: SPAM_PAGE_SIZE + 1, ...(before === undefined ? {} : { before }) }), store.count(form.path)]);
    const entries = found.slice(0, SPAM_PAGE_SIZE);
    return htmlAnswer(
      200,
      <SpamListPage
        session={session}
        formPath={form.path}
        base={spamPathOf(form.path)}
        inboxHref={isArchivedForm(form) ? `/admin/inbox/${inboxKeyOf(form.path)}` : undefined}
        entries={entries}
        before={before}
        next={found.length > SPAM_PAGE_SIZE ? entries.at(-1)!.id : undefined}
        waiting={waiting}
        canRelease={release !== undefined}
        notice={spamNoticeOf(query.get('notice'))}
        deleted={countOf(query.get('count'))}
      />,
    );
  };

  /** "Delete" of one entry, or of every waiting one up to the newest the page showed: asked first, then done. */
  const remove = async (request: Parameters<AdminPage>[0], session: AdminSession, form: FormConfig): Promise<ReturnType<AdminPage>> => {
    const fields = request.form!.fields;
    const all = fields.get('action') === 'delete_all';
    const id = fields.get(all ? 'up_to' : 'id') ?? '';
    const before = beforeOf(fields.get('before'));
    const base = spamPathOf(form.path);
    if (!ENTRY_ID.test(id)) return redirectAnswer(`${base}?notice=gone`);
    if (!isConfirmed(fields)) {
      const waiting = all ? await store.count(form.path) : 1;
      return htmlAnswer(
        200,
        <ConfirmPage
          session={session}
          section="inbox"
          title={all ? `Delete the spam of ${form.path}?` : 'Delete this submission?'}
          action={base}
          fields={{ action: all ? 'delete_all' : 'delete', [all ? 'up_to' : 'id']: id, ...(before === undefined ? {} : { before }) }}
          cancel={{ href: before === undefined ? base : `${base}?before=${encodeURIComponent(before)}`, label: 'Cancel, back to the spam' }}
          button={all ? 'Delete them' : 'Delete it'}
        >
          <p>
            {all
              ? `Every submission of ${form.path} that waits in the quarantine (${waiting} now), except any that arrived after you opened the page, is deleted for good: nothing of it is delivered or kept.`
              : 'The submission is deleted for good: nothing of it is delivered or kept.'}
          </p>
        </ConfirmPage>,
      );
    }
    const count = await store.discard(form.path, all ? { upTo: id } : { id }, clock(), RELEASE_STALE_MS);
    const back = new URLSearchParams({ ...(before === undefined || all ? {} : { before }), notice: count === 0 ? 'gone' : 'deleted', count: String(count) });
    return redirectAnswer(`${base}?${back.toString()}`);
  };

  const notSpam: AdminPage = async (request, session) => {
    const form = formOf(request.path);
    if (!form) return notFound(session);
    const fields = request.form?.fields;
    const action = fields?.get('action');
    if (action === 'delete' || action === 'delete_all') return remove(request, session, form);
    const id = fields?.get('id') ?? '';
    const before = beforeOf(fields?.get('before'));
    let notice: SpamNotice;
    if (!release) notice = 'not_running';
    else if (!ENTRY_ID.test(id)) notice = 'gone';
    else notice = await release(id, session.user);
    const back = new URLSearchParams({ ...(before === undefined ? {} : { before }), notice });
    return redirectAnswer(`${spamPathOf(form.path)}?${back.toString()}`);
  };

  return [{ path: PREFIX, prefix: true, methods: { GET: show, POST: notSpam } }];
}
