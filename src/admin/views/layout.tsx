// The frame of every admin page: language, title, the stylesheet, a header with the signed-in user and "Sign
// out", the navigation (only the sections the person's role opens) and the main landmark. Preact escapes every
// text and attribute it renders.
import type { ComponentChildren } from 'preact';
import type { Role } from '../accounts/account.js';
import { EDITORS, EVERY_ROLE, OWNERS } from '../accounts/roles.js';
import { adminAssetPath, type AdminAssetName } from '../admin-assets.js';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from './csrf-field.js';

/** The sections of the navigation. */
export type AdminSection = (typeof NAVIGATION)[number]['section'];

/** Each section with the roles that open it: the same roles its pages list (app/admin-pages.ts). */
const NAVIGATION = [
  { section: 'dashboard', label: 'Dashboard', href: '/admin', roles: OWNERS },
  { section: 'posts', label: 'Posts', href: '/admin/posts', roles: EVERY_ROLE },
  { section: 'comments', label: 'Comments', href: '/admin/comments', roles: EVERY_ROLE },
  { section: 'analytics', label: 'Analytics', href: '/admin/analytics', roles: EDITORS },
  { section: 'campaigns', label: 'Campaigns', href: '/admin/campaigns', roles: EDITORS },
  { section: 'inbox', label: 'Inbox', href: '/admin/inbox', roles: OWNERS },
  { section: 'subscribers', label: 'Subscribers', href: '/admin/subscribers', roles: OWNERS },
  { section: 'followers', label: 'Followers', href: '/admin/followers', roles: OWNERS },
  { section: 'failed', label: 'Failed mail', href: '/admin/failed', roles: OWNERS },
  { section: 'bounces', label: 'Bounces', href: '/admin/bounces', roles: OWNERS },
  { section: 'users', label: 'Users', href: '/admin/users', roles: OWNERS },
  { section: 'audit', label: 'Audit', href: '/admin/audit', roles: OWNERS },
  { section: 'account', label: 'Account', href: '/admin/account', roles: EVERY_ROLE },
] as const satisfies ReadonlyArray<{ section: string; label: string; href: string; roles: readonly Role[] }>;

/** The navigation `role` sees: a section it would be refused is not shown. */
export function navigationOf(role: Role): ReadonlyArray<(typeof NAVIGATION)[number]> {
  return NAVIGATION.filter((item) => item.roles.includes(role));
}

export interface LayoutProps {
  /** The page's own title; " · Postbox admin" is added. */
  title: string;
  /** The signed-in person; without one (sign-in page) there is no header or navigation. */
  session?: AdminSession;
  /** The section the page belongs to, marked in the navigation. */
  section?: AdminSection;
  /**
   * Scripts of /admin (names such as "campaign-progress.js", served at their versioned address) the page loads,
   * deferred. The CSP runs no inline script, and every page works without them.
   */
  scripts?: readonly AdminAssetName[];
  children?: ComponentChildren;
}

export function Layout({ title, session, section, scripts, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>{`${title} · Postbox admin`}</title>
        <link rel="stylesheet" href={adminAssetPath('admin.css')} />
        <link rel="icon" href="/favicon.ico" />
        {scripts?.map((name) => <script key={name} src={adminAssetPath(name)} defer />)}
      </head>
      <body>
        <header class="admin-header">
          <p class="admin-brand">Postbox admin</p>
          {session && (
            <form method="post" action="/admin/logout" class="admin-sign-out">
              <span class="admin-user">
                Signed in as <strong>{session.user}</strong>
              </span>
              <CsrfField session={session} />
              <button type="submit">Sign out</button>
            </form>
          )}
        </header>
        {session && (
          <nav aria-label="Admin sections" class="admin-nav">
            <ul>
              {navigationOf(session.role).map((item) => (
                <li key={item.section}>
                  <a href={item.href} aria-current={item.section === section ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main">{children}</main>
        {session?.timeZone && (
          <footer class="admin-footer">
            <p>Times are shown in {session.timeZone === 'UTC' ? 'UTC' : `the ${session.timeZone} time zone`}.</p>
          </footer>
        )}
      </body>
    </html>
  );
}
