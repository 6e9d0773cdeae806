// The admin's one stylesheet, served at /admin/assets/admin.css (the CSP allows styles from /admin only, so no
// page carries inline styles). Plain, readable, with visible focus for keyboard use.

export const ADMIN_CSS = `:root { color-scheme: light dark; --accent: #1f5fbf; --problem: #a61b1b; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
.admin-header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: 0.5rem 1rem; border-bottom: 1px solid #8884; }
.admin-brand { margin: 0; font-weight: 600; }
.admin-sign-out { display: flex; gap: 0.75rem; align-items: center; margin: 0; }
.admin-nav ul { display: flex; gap: 1rem; margin: 0; padding: 0.5rem 1rem; list-style: none; border-bottom: 1px solid #8884; }
.admin-nav a[aria-current="page"] { font-weight: 600; text-decoration: none; }
main { max-width: 60rem; padding: 1rem; }
.admin-form label { display: block; font-weight: 600; }
.admin-form input[type="text"], .admin-form input[type="password"] { width: 100%; max-width: 24rem; padding: 0.4rem; font: inherit; }
button { padding: 0.4rem 0.9rem; font: inherit; cursor: pointer; }
.admin-problem { padding: 0.5rem 0.75rem; border-left: 4px solid var(--problem); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.admin-notice { padding: 0.5rem 0.75rem; border-left: 4px solid var(--accent); }
.admin-table { border-collapse: collapse; width: 100%; }
.admin-table caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
.admin-table th, .admin-table td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #8884; vertical-align: top; }
.admin-hint { display: block; font-size: 0.9rem; opacity: 0.8; }
.admin-form textarea { width: 100%; padding: 0.4rem; font: 0.95rem/1.4 ui-monospace, monospace; }
.admin-editor input[type="text"] { max-width: 40rem; }
.admin-check label { display: inline; }
.admin-actions, .admin-version-actions form { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin: 1rem 0; }
.admin-preview-frame { width: 100%; min-height: 24rem; border: 1px solid #8886; }
.admin-button-link { display: inline-block; padding: 0.4rem 0.9rem; border: 1px solid currentColor; }
.admin-facts dt { font-weight: 600; }
.admin-facts dd { margin: 0 0 0.5rem 0; }
.admin-form input[type="email"], .admin-form select { width: 100%; max-width: 24rem; padding: 0.4rem; font: inherit; }
progress { width: 16rem; max-width: 100%; vertical-align: middle; }
`;
