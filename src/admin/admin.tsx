// The administration pages at /admin (docs/admin.md), as routes for the front door of the service that serves
// them. Every request under /admin passes `handle` below, which decides sign-in, session, origin and CSRF token
// before any page runs and puts the admin's headers on every answer (admin-pages.ts says what a page gets).
import { randomBytes as nodeRandomBytes, timingSafeEqual } from 'node:crypto';
import type { AdminConfig } from '../config/config.js';
import type { Answer } from '../http/answer.js';
import type { Route, RoutedRequest } from '../http/route-table.js';
import type { Logger } from '../kit/log.js';
import type { Clock, RandomBytes } from '../ports.js';
import { safeReason } from '../kit/safe-reason.js';
import { ADMIN_CSS } from './admin-css.js';
import { ADMIN_HEADERS } from './admin-headers.js';
import { CAMPAIGN_PROGRESS_JS } from './campaign-progress-js.js';
import type { AdminPage, AdminRoute } from './admin-pages.js';
import { readAdminForm, type AdminForm } from './form-body.js';
import { loginPathFor } from './next-path.js';
import { createDummyHash, parsePasswordHash, SALT_BYTES, type PasswordHash } from '../kit/password-hash.js';
import { htmlAnswer, redirectAnswer } from './render.js';
import { isFromAnotherSite } from './request-origin.js';
import { sessionIdOf } from './session-cookie.js';
import type { AdminSession, SessionStore, SessionStoreOptions } from './sessions.js';
import { createSignIn } from './sign-in.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import { CSRF_FIELD } from './views/csrf-field.js';
import { MessagePage } from './views/message-page.js';

/** The admin's static files, served to anyone (they hold nothing private) with the admin's headers. */
const ASSETS: ReadonlyMap<string, { type: string; body: string }> = new Map([
  ['/admin/assets/admin.css', { type: 'text/css; charset=utf-8', body: ADMIN_CSS }],
  ['/admin/assets/campaign-progress.js', { type: 'text/javascript; charset=utf-8', body: CAMPAIGN_PROGRESS_JS }],
]);

/** Room for a POST's fields beside its largest upload. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export interface AdminSettings {
  admin: AdminConfig;
}

/** The admin's sessions and failed sign-ins, kept by the backend (data_dir or PostgreSQL, docs/admin.md "Sessions"). */
export interface AdminRecords {
  /** The session store; the files backend reads data_dir/admin-sessions.json first. */
  openSessions(options: Omit<SessionStoreOptions, 'file'>): Promise<SessionStore>;
  /** Failed sign-ins: in this process (files) or counted by every replica (PostgreSQL). */
  throttle: SignInThrottle;
}

/** What the admin works through; the composition root makes them. */
export interface AdminAdapters {
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  records: AdminRecords;
}

export interface Admin {
  /** For the route table of the service that serves /admin. */
  routes: Route[];
  /** The largest request body the admin reads (the server's 100-continue limit must let it through). */
  maxBodyBytes: number;
  /** Waits for the last session save. */
  close(): Promise<void>;
}

/** Builds /admin with `pages` (createPlaceholderPages() until the posts pages exist) behind sign-in. */
export async function createAdmin(settings: AdminSettings, adapters: AdminAdapters, pages: readonly AdminRoute[]): Promise<Admin> {
  const { admin } = settings;
  const { logger, clock } = adapters;
  const users = new Map<string, PasswordHash>();
  for (const user of admin.users) {
    const parsed = parsePasswordHash(user.password_hash);
    if (!('problem' in parsed)) users.set(user.name, parsed);
  }
  const [first] = users.values();
  if (!first) throw new Error('[admin] has no usable user');
  const sessionOptions = {
    clock,
    randomBytes: adapters.randomBytes,
    idleMs: admin.session_hours * 3_600_000,
    users: new Set(users.keys()),
    onSaveError: (error: unknown) => logger.error({ event: 'admin_sessions_not_saved', reason: safeReason(error) }, 'admin sessions not saved'),
  };
  const sessions = await adapters.records.openSessions(sessionOptions);
  const signIn = createSignIn({
    users,
    dummyHash: await createDummyHash(first, nodeRandomBytes(SALT_BYTES)),
    sessions,
    throttle: adapters.records.throttle,
    clock,
    logger,
    secureCookies: admin.secure_cookies,
  });
  const maxBodyBytes = admin.max_upload_bytes + FORM_OVERHEAD_BYTES;
  const findPage = createPageLookup(pages);

  async function route(request: RoutedRequest): Promise<Answer> {
    const { method, path } = request;
    const isRead = method === 'GET' || method === 'HEAD';
    const asset = ASSETS.get(path);
    if (asset) return isRead ? { status: 200, headers: { 'content-type': asset.type }, body: asset.body } : notAllowed('GET, HEAD');
    if (!isRead && method !== 'POST') return notAllowed(path === '/admin/logout' ? 'POST' : 'GET, HEAD, POST');
    if (method === 'POST' && isFromAnotherSite(request.raw.headers)) {
      request.raw.resume();
      return refused('This request came from another site.', undefined);
    }
    const id = sessionIdOf(request.raw.headers.cookie);
    const session = await sessions.find(id);
    if (path === '/admin/login') {
      if (isRead) return signIn.showForm(request, session);
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      return body.ok ? signIn.signIn(request, body.form, id) : unreadable(body.problem, undefined);
    }
    if (!session) {
      request.raw.resume();
      return redirectAnswer(isRead ? loginPathFor(request.url) : '/admin/login');
    }
    if (path === '/admin/logout') {
      if (isRead) return notAllowed('POST');
      const body = await readAdminForm(request.raw, FORM_OVERHEAD_BYTES);
      if (!body.ok) return unreadable(body.problem, session);
      return hasCsrfToken(body.form, session) ? signIn.signOut(session, id) : refused('The form was out of date. Please try again.', session);
    }
    const found = findPage(path);
    if (!found) return htmlAnswer(404, <MessagePage title="Not found" message="There is no admin page at this address." session={session} link={{ href: '/admin/posts', label: 'Back to the posts' }} />);
    const page: AdminPage | undefined = isRead ? found.methods.GET : found.methods.POST;
    if (!page) return notAllowed(found.methods.POST ? (found.methods.GET ? 'GET, HEAD, POST' : 'POST') : 'GET, HEAD');
    if (isRead) return page({ ...request, session }, session);
    const body = await readAdminForm(request.raw, maxBodyBytes);
    if (!body.ok) return unreadable(body.problem, session);
    if (!hasCsrfToken(body.form, session)) return refused('The form was out of date. Please try again.', session);
    return page({ ...request, session, form: body.form }, session);
  }

  /** The front door's handler for every method on every path under /admin. */
  async function handle(request: RoutedRequest): Promise<Answer> {
    let answer: Answer;
    try {
      answer = await route(request);
    } catch (error) {
      if (error instanceof UnavailableError) {
        // The shared records are out of reach (docs/admin.md "Several replicas"): 503; the next request tries again.
        request.raw.resume();
        logger.warn({ event: 'admin_unavailable', part: error.part, method: request.method, path: request.path }, 'admin request answered 503');
        answer = unavailable();
      } else {
        logger.error({ event: 'internal_error', reason: safeReason(error), method: request.method, path: request.path }, 'admin request failed');
        answer = htmlAnswer(500, <MessagePage title="Something went wrong" message="The server could not handle this request. Nothing may have been changed; please try again." />);
      }
    }
    return withAdminHeaders(answer);
  }

  return {
    routes: [
      { path: '/admin', methods: { '*': handle } },
      { path: '/admin/', prefix: true, methods: { '*': handle } },
    ],
    maxBodyBytes,
    close: () => sessions.close(),
  };
}

/** `answer` with the admin's headers, which no page can leave out or override. */
function withAdminHeaders(answer: Answer): Answer {
  const own = Array.isArray(answer.headers) ? pairsToRecord(answer.headers as readonly string[]) : (answer.headers as Record<string, string>);
  return { ...answer, headers: { ...own, ...ADMIN_HEADERS } };
}

function pairsToRecord(pairs: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index + 1 < pairs.length; index += 2) record[(pairs[index] as string).toLowerCase()] = pairs[index + 1] as string;
  return record;
}

/** Whether the form's csrf_token is the session's (compared in constant time). */
function hasCsrfToken(form: AdminForm, session: AdminSession): boolean {
  const sent = Buffer.from(form.fields.get(CSRF_FIELD) ?? '');
  const expected = Buffer.from(session.csrfToken);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function refused(message: string, session: AdminSession | undefined): Answer {
  return htmlAnswer(403, <MessagePage title="Refused" message={message} session={session} link={{ href: '/admin/posts', label: 'Back to the admin' }} />);
}

function unreadable(problem: 'too_large' | 'invalid', session: AdminSession | undefined): Answer {
  return problem === 'too_large'
    ? htmlAnswer(413, <MessagePage title="Too large" message="What was sent is larger than the admin accepts." session={session} />, { connection: 'close' })
    : htmlAnswer(400, <MessagePage title="Not understood" message="The form could not be read." session={session} />);
}

/** While the database of [state] is out of reach: nothing was changed, and a retry in a moment may work. */
function unavailable(): Answer {
  return htmlAnswer(
    503,
    <MessagePage title="Temporarily unavailable" message="The admin's database cannot be reached just now. Nothing was changed; please try again in a moment." />,
    { 'retry-after': '5' },
  );
}

function notAllowed(allow: string): Answer {
  return htmlAnswer(405, <MessagePage title="Not allowed" message="This address does not take that kind of request." />, { allow });
}

interface PageLookup {
  (path: string): AdminRoute | undefined;
}

/** Exact paths first, then prefixes, longest first (like the front door's route table). */
function createPageLookup(pages: readonly AdminRoute[]): PageLookup {
  const exact = new Map<string, AdminRoute>();
  const prefixes = pages.filter((page) => page.prefix).sort((a, b) => b.path.length - a.path.length);
  for (const page of pages) if (!page.prefix && !exact.has(page.path)) exact.set(page.path, page);
  return (path) => exact.get(path) ?? prefixes.find((page) => path.startsWith(page.path));
}
