// How pages plug into /admin (docs/admin.md "Adding pages"). A page is a plain handler listed in an AdminRoute;
// createAdmin (admin.ts) runs every one behind the same guard, so a page holds no security code of its own:
//
//   - no live session: GET/HEAD answer 303 to /admin/login?next=<this path>, POST 303 to /admin/login;
//   - a role the route does not list is 403 (owners only unless `roles` says otherwise), before anything is read;
//   - POST: an Origin or Sec-Fetch-Site from another site is 403, the body is read (urlencoded or multipart,
//     at most admin.max_upload_bytes plus 1 MiB) into `request.form`, and a missing or wrong `csrf_token`
//     field is 403, all before the handler runs;
//   - every answer gets the admin's headers (no-store, CSP, nosniff, ...), a throw becomes a logged 500 page;
//   - a path no route has is 404, a method the path lacks is 405 with Allow.
//
// A page renders with `htmlAnswer(status, <Layout title session section>...</Layout>)` from render.tsx, puts
// `<CsrfField session={session} />` (views/csrf-field.tsx) in every POST form, and ends a POST with
// `redirectAnswer('/admin/...')` (303) so that reloading does not post again.
import type { Answer } from '../http/answer.js';
import type { RoutedRequest } from '../http/route-table.js';
import type { AdminForm } from './form-body.js';
import type { Role } from './accounts/account.js';
import type { AdminSession } from './sessions.js';

export type { AdminForm, AdminSession };

/** A request to a page: the front door's request, the session, and for a POST its checked body. */
export interface AdminRequest extends RoutedRequest {
  session: AdminSession;
  /** The fields and files of a POST, read and CSRF-checked; undefined for GET and HEAD. */
  form?: AdminForm;
}

/** Answers one admin request of a signed-in person. */
export type AdminPage = (request: AdminRequest, session: AdminSession) => Answer | Promise<Answer>;

/** Answers a request that needs no session (accepting an invitation); a POST's body is read, with no CSRF token. */
export type AnonymousPage = (request: RoutedRequest & { form?: AdminForm }) => Answer | Promise<Answer>;

export interface AdminRoute {
  /** A path under /admin, e.g. "/admin/posts"; with `prefix` every path that starts with it ("/admin/posts/"). */
  path: string;
  prefix?: boolean;
  /** GET answers HEAD too. Only GET and POST: every change is a POST (docs/admin.md "Security"). */
  methods: Partial<Record<'GET' | 'POST', AdminPage>>;
  /** The roles that may open it; owners only unless given (docs/admin.md "Users and roles"). */
  roles?: readonly Role[];
  /** Instead of `methods`: answered to anybody, signed in or not; the page itself decides who may act. */
  anonymous?: Partial<Record<'GET' | 'POST', AnonymousPage>>;
}
