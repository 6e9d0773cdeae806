// /admin/spam (docs/admin.md "Quarantine"), like the inbox the owners' alone: the Spam view of each form, and its
// "Not spam". Every form has one, with an archive or without, newsletter forms too: whatever the spam checks take
// is kept in the quarantine of the state store (docs/spam.md "Quarantine").
//
//   GET  /admin/spam/<form>?before=<id>   the quarantined submissions of the form, newest first, 50 a page
//   POST /admin/spam/<form>               "Not spam" of the entry `id` (behind the admin's CSRF check); 303 back to
//                                         the page it was on, with a notice of what happened
//
// <form> is inboxKeyOf(form.path) (inbox-forms.ts); an unknown one is 404.
import type { FormConfig } from '../../config/config.js';
import type { SpamStore } from '../../forms/spam/quarantine.js';
import type { ReleaseOutcome } from '../../forms/spam/release.js';
import type { AdminPage, AdminRoute, AdminSession } from '../admin-pages.js';
import { inboxKeyOf, isArchivedForm } from '../inbox-pages/inbox-forms.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
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
  store: Pick<SpamStore, 'list' | 'count'>;
  /** Undefined when no forms service runs in this process: the view lists, and nothing is delivered from it. */
  release?: SpamRelease;
}

/** The Spam view of the form at `formPath`. */
export function spamPathOf(formPath: string): string {
  return `${PREFIX}${inboxKeyOf(formPath)}`;
}

export function createSpamPages(deps: SpamPagesDeps): AdminRoute[] {
  const { forms, store, release } = deps;

  const formOf = (requestPath: string): FormConfig | undefined => {
    const key = requestPath.slice(PREFIX.length);
    return forms.find((form) => inboxKeyOf(form.path) === key);
  };

  const notFound = (session: AdminSession) =>
    htmlAnswer(404, <MessagePage title="No such form" message="No form has this address." session={session} link={{ href: '/admin/inbox', label: 'Back to the inbox' }} />);

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
      />,
    );
  };

  const notSpam: AdminPage = async (request, session) => {
    const form = formOf(request.path);
    if (!form) return notFound(session);
    const fields = request.form?.fields;
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
