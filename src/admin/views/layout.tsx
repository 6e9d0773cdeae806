// The frame of every admin page: language, title, the stylesheet, a header with the signed-in user and "Sign
// out", the navigation and the main landmark. Preact escapes every text and attribute it renders.
import type { ComponentChildren } from 'preact';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from './csrf-field.js';

/** The sections of the navigation; the inbox and the dashboard join them later (issue 12 part 2). */
export type AdminSection = 'posts' | 'campaigns';

const NAVIGATION: ReadonlyArray<{ section: AdminSection; label: string; href: string }> = [
  { section: 'posts', label: 'Posts', href: '/admin/posts' },
  { section: 'campaigns', label: 'Campaigns', href: '/admin/campaigns' },
];

export interface LayoutProps {
  /** The page's own title; " · Postbox admin" is added. */
  title: string;
  /** The signed-in person; without one (sign-in page) there is no header or navigation. */
  session?: AdminSession;
  /** The section the page belongs to, marked in the navigation. */
  section?: AdminSection;
  /**
   * Scripts of /admin (paths such as "/admin/assets/campaign-progress.js") the page loads, deferred. The CSP runs
   * no inline script, and every page works without them.
   */
  scripts?: readonly string[];
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
        <link rel="stylesheet" href="/admin/assets/admin.css" />
        {scripts?.map((src) => <script key={src} src={src} defer />)}
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
              {NAVIGATION.map((item) => (
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
      </body>
    </html>
  );
}
