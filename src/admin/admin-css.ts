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
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;
