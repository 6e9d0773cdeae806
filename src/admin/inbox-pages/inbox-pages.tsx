// /admin/inbox (docs/admin.md "Inbox"): the forms, each archived form's submissions (newest first, read from the
// end of the archive, 50 a page, searched), one submission in full, its deletion, and the CSV export, streamed.
//
//   GET  /admin/inbox                       the forms, each with the number waiting in its quarantine
//   GET  /admin/inbox/<form>?q=&page=       a page of submissions
//   GET  /admin/inbox/<form>/export.csv     every submission, oldest first
//   GET  /admin/inbox/<form>/<id>           one submission, with its files
//   GET  /admin/inbox/<form>/<id>/files/<file>  one of its files, as a download (docs/attachments.md "In /admin")
//   POST /admin/inbox/<form>/<id>/delete    asks first (a page naming the submission); with confirm=yes removes its
//                                           line, then 303 to the list with a notice
//
// <form> is inboxKeyOf(form.path); <id> is the entry's id (src/admin/inbox/inbox-entry.ts). Unknown ones are 404.
// Each form's Spam view (its quarantine) is /admin/spam/<form> (src/admin/spam-pages/), linked from both lists.
import type { Readable } from 'node:stream';
import type { FormConfig } from '../../config/config.js';
import type { SpamStore } from '../../forms/spam/quarantine.js';
import { searchTermsOf } from '../inbox/inbox-entry.js';
import type { Logger } from '../../kit/log.js';
import type { ArchiveOfForm, ArchiveReader } from '../inbox/archive-reader.js';
import type { InboxEntry } from '../inbox/inbox-entry.js';
import type { AdminPage, AdminRoute, AdminSession } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { spamPathOf } from '../spam-pages/spam-pages.js';
import { Time } from '../views/time.js';
import { ConfirmPage, isConfirmed } from '../views/confirm-page.js';
import { MessagePage } from '../views/message-page.js';
import { createInboxCsv } from './inbox-export.js';
import { exportFileNameOf, findArchivedForm, inboxKeyOf, isArchivedForm, PAGE_SIZE, pageNumberOf, type ArchivedForm } from './inbox-forms.js';
import { InboxFormsPage, SubmissionListPage, SubmissionPage, type InboxNotice, type ListedFile } from './inbox-views.js';

const INBOX = '/admin/inbox';
const PREFIX = `${INBOX}/`;
const EXPORT = 'export.csv';

export interface InboxDeps {
  forms: readonly FormConfig[];
  /** The archives: data_dir files or the PostgreSQL table of [state] (src/admin/inbox/archive-reader.ts). */
  archives: ArchiveReader;
  /** The spam quarantine, for the number waiting in each form's (docs/admin.md "Quarantine"); the inbox alone without. */
  spam?: Pick<SpamStore, 'count'>;
  /** Removes the files of a deleted submission (docs/attachments.md "Storage"), when forms take files. */
  removeAttachments?(ids: readonly string[]): Promise<void>;
  /** A file's bytes from storage, or undefined when it is gone; when forms take files. */
  readAttachment?(id: string): Promise<Readable | undefined>;
  logger: Logger;
}

/** What an inbox address names: a form, and then the export, a submission, or a submission's deletion. */
type InboxTarget = { form: ArchivedForm; key: string; rest: string[] };

export function createInboxPages(deps: InboxDeps): AdminRoute[] {
  const { forms, archives, spam, logger } = deps;
  const archiveOf = (form: ArchivedForm): ArchiveOfForm => ({ archive: form.archive, form: form.path });

  const targetOf = (requestPath: string): InboxTarget | undefined => {
    const [key = '', ...rest] = requestPath.slice(PREFIX.length).split('/');
    const form = findArchivedForm(forms, key);
    return form ? { form, key, rest } : undefined;
  };

  const notFound = (session: AdminSession, what: 'form' | 'submission', back = INBOX) =>
    htmlAnswer(
      404,
      <MessagePage
        title={what === 'form' ? 'No such inbox' : 'No such submission'}
        message={what === 'form' ? 'No form with an archive has this address.' : 'This submission is not in the archive: it may have been deleted.'}
        session={session}
        link={{ href: back, label: 'Back to the inbox' }}
      />,
    );

  const listForms: AdminPage = async (_request, session) => {
    // A newsletter form has no inbox; it is listed for its quarantine alone.
    const listed = forms.filter((form) => spam !== undefined || form.type !== 'newsletter');
    const listing = await Promise.all(
      listed.map(async (form) => ({
        path: form.path,
        type: form.type,
        key: isArchivedForm(form) ? inboxKeyOf(form.path) : undefined,
        ...(spam ? { spam: { href: spamPathOf(form.path), waiting: await spam.count(form.path) } } : {}),
      })),
    );
    return htmlAnswer(200, <InboxFormsPage session={session} forms={listing} />);
  };

  const showList = async (target: InboxTarget, query: URLSearchParams, session: AdminSession) => {
    const search = query.get('q') ?? '';
    const page = pageNumberOf(query.get('page'));
    const notice = query.get('notice');
    const [result, spamWaiting] = await Promise.all([archives.readPage(archiveOf(target.form), { page, size: PAGE_SIZE, terms: searchTermsOf(search) }), spam?.count(target.form.path)]);
    return htmlAnswer(
      200,
      <SubmissionListPage
        session={session}
        formPath={target.form.path}
        formKey={target.key}
        entries={result.entries}
        query={search}
        page={page}
        hasNext={result.hasNext}
        spam={spamWaiting === undefined ? undefined : { href: spamPathOf(target.form.path), waiting: spamWaiting }}
        notice={notice === 'deleted' || notice === 'missing' ? (notice as InboxNotice) : undefined}
      />,
    );
  };

  const exportCsv = async (target: InboxTarget) => ({
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${exportFileNameOf(target.key)}"`,
    },
    body: createInboxCsv(await startedReading(archives.readEntries(archiveOf(target.form)))),
  });

  const show: AdminPage = async (request, session) => {
    const target = targetOf(request.path);
    if (!target) return notFound(session, 'form');
    const { rest } = target;
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) return showList(target, new URLSearchParams(request.query), session);
    if (rest.length === 1 && rest[0] === EXPORT) return exportCsv(target);
    if (rest.length === 3 && rest[1] === 'files') return downloadFile(target, rest[0]!, rest[2]!, session);
    const entry = rest.length === 1 ? await archives.readEntry(archiveOf(target.form), rest[0]!) : undefined;
    if (!entry) return notFound(session, 'submission', `${INBOX}/${target.key}`);
    const files = deps.readAttachment ? filesOf(entry) : [];
    return htmlAnswer(200, <SubmissionPage session={session} formPath={target.form.path} formKey={target.key} entry={entry} files={files} />);
  };

  /**
   * A file the submission's archive line lists, and no other: only scanned, clean files reach the archive (a
   * virus quarantine is never archived). Always a download, never shown inline (the writer adds nosniff).
   */
  const downloadFile = async (target: InboxTarget, entryId: string, fileId: string, session: AdminSession) => {
    const entry = await archives.readEntry(archiveOf(target.form), entryId);
    const file = entry ? filesOf(entry).find((listed) => listed.id === fileId) : undefined;
    const content = file && (await deps.readAttachment?.(file.id));
    if (!file || !content) return notFound(session, 'submission', `${INBOX}/${target.key}`);
    return {
      status: 200,
      headers: {
        'content-type': /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(file.type) ? file.type : 'application/octet-stream',
        'content-disposition': attachmentDisposition(file.filename),
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      },
      body: content,
    };
  };

  const remove: AdminPage = async (request, session) => {
    const target = targetOf(request.path);
    if (!target) return notFound(session, 'form');
    const [id, action] = target.rest;
    if (target.rest.length !== 2 || action !== 'delete' || id === undefined) return notFound(session, 'submission', `${INBOX}/${target.key}`);
    if (!isConfirmed(request.form?.fields)) {
      const entry = await archives.readEntry(archiveOf(target.form), id);
      if (!entry) return redirectAnswer(`${INBOX}/${target.key}?notice=missing`);
      return htmlAnswer(200, <ConfirmDeletion session={session} formPath={target.form.path} formKey={target.key} entry={entry} />);
    }
    const files = deps.removeAttachments ? attachmentIdsOf(await archives.readEntry(archiveOf(target.form), id)) : [];
    const outcome = await archives.remove(archiveOf(target.form), id);
    if (outcome === 'removed' && files.length > 0) await deps.removeAttachments?.(files);
    if (outcome === 'removed') {
      // The form and the line's id only: nothing of what the person submitted (docs/admin.md "Inbox").
      logger.info({ event: 'admin_submission_deleted', user: session.user, form: target.form.path, id }, 'admin: submission deleted');
    }
    return redirectAnswer(`${INBOX}/${target.key}?notice=${outcome === 'removed' ? 'deleted' : 'missing'}`);
  };

  return [
    { path: INBOX, methods: { GET: listForms } },
    { path: PREFIX, prefix: true, methods: { GET: show, POST: remove } },
  ];
}

/** The files an archive line lists (src/forms/archive.ts), removed ones left out; none when it lists none. */
function filesOf(entry: InboxEntry): ListedFile[] {
  try {
    const files = JSON.parse(entry.fields.attachments ?? '[]') as unknown;
    if (!Array.isArray(files)) return [];
    return files
      .filter((file): file is ListedFile & { removed?: boolean } => typeof file?.id === 'string' && typeof file.filename === 'string' && typeof file.type === 'string' && typeof file.size === 'number')
      .filter((file) => file.removed !== true)
      .map(({ id, filename, type, size }) => ({ id, filename, type, size }));
  } catch {
    return [];
  }
}

/** RFC 6266: an ASCII fallback and the UTF-8 name (RFC 8187). */
function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'attachment';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The ids of the files an archive line lists (src/forms/archive.ts); none when it lists none. */
function attachmentIdsOf(entry: InboxEntry | undefined): string[] {
  const listed = entry?.fields.attachments;
  if (listed === undefined) return [];
  try {
    const files = JSON.parse(listed) as unknown;
    return Array.isArray(files) ? files.map((file) => (file as { id?: unknown })?.id).filter((fileId): fileId is string => typeof fileId === 'string') : [];
  } catch {
    return [];
  }
}

/** The question before a submission is deleted: the form, when it was received, and who sent it. */
function ConfirmDeletion({ session, formPath, formKey, entry }: { session: AdminSession; formPath: string; formKey: string; entry: InboxEntry }) {
  const { name, email } = entry.fields;
  const sender = [name, email && `<${email}>`].filter((part) => part !== undefined && part !== '').join(' ');
  return (
    <ConfirmPage
      session={session}
      section="inbox"
      title={`Delete this submission to ${formPath}?`}
      action={`${INBOX}/${formKey}/${entry.id}/delete`}
      fields={{}}
      cancel={{ href: `${INBOX}/${formKey}/${entry.id}`, label: 'Cancel, back to the submission' }}
    >
      <p>
        The submission received {entry.received_at ? <>on <Time at={entry.received_at} zone={session.timeZone} /></> : 'at an unknown time'}
        {sender !== '' && <> from {sender}</>} will be deleted from the archive of {formPath}. This cannot be undone.
      </p>
    </ConfirmPage>
  );
}

/**
 * `entries` with its first one already read: a store that cannot be reached fails here, before the 200 and the
 * headers of the export went out, and the admin answers 503 instead of a cut-off file.
 */
async function startedReading(entries: AsyncIterable<InboxEntry>): Promise<AsyncIterable<InboxEntry>> {
  const iterator = entries[Symbol.asyncIterator]();
  let first: IteratorResult<InboxEntry> | undefined = await iterator.next();
  const rest: AsyncIterator<InboxEntry> = {
    next() {
      const result = first;
      first = undefined;
      return result ? Promise.resolve(result) : iterator.next();
    },
    // An export the client left early closes the reading (a file) even before its second entry was asked for.
    async return() {
      first = undefined;
      await iterator.return?.();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => rest };
}
