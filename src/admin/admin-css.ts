// The admin's one stylesheet, served at /admin/assets/admin.css (the CSP allows styles from /admin only, so no
// page carries inline styles). A type scale and spacing scale, visible focus for keyboard use, a dark mode that
// follows the system, tables that scroll inside their own region, and a header and navigation that wrap, so that
// no page scrolls sideways at 390 CSS pixels (test/e2e/admin-narrow.test.ts).

export const ADMIN_CSS = `:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #50575f; --surface: #f4f6f8; --surface-2: #e9edf1; --border: #c9d0d6;
  --link: #1a56b0; --accent: #1f5fbf; --accent-fg: #ffffff; --focus: #1f5fbf; --problem: #a61b1b; --problem-bg: #fdecec;
  --ok: #1d6b33; --ok-bg: #e7f4ea; --warn: #7a4a00; --warn-bg: #fdf1dc; --neutral: #4a5159; --neutral-bg: #eef0f2;
  --chart-mark: #1f5fbf; --chart-grid: #767676;
  --step--1: 0.875rem; --step-0: 1rem; --step-1: 1.125rem; --step-2: 1.375rem; --step-3: 1.75rem; --step-4: 2rem;
  --space-1: 0.25rem; --space-2: 0.5rem; --space-3: 0.75rem; --space-4: 1rem; --space-5: 1.5rem; --space-6: 2rem;
  --radius: 6px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14171b; --fg: #e6e9ec; --muted: #b3bac2; --surface: #1d2126; --surface-2: #262b31; --border: #454d56;
    --link: #8fb8ff; --accent: #8fb8ff; --accent-fg: #0b1526; --focus: #a9c8ff; --problem: #ff9b9b; --problem-bg: #3a1c1c;
    --ok: #8fd6a2; --ok-bg: #173322; --warn: #f3c477; --warn-bg: #3a2a10; --neutral: #c6ccd2; --neutral-bg: #2a2f35;
    --chart-mark: #7fb0ff; --chart-grid: #9a9a9a;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: var(--step-0)/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow-wrap: break-word; }
h1, h2, h3 { line-height: 1.25; margin: var(--space-5) 0 var(--space-3); }
h1 { font-size: var(--step-3); margin-top: var(--space-2); }
h2 { font-size: var(--step-2); }
h3 { font-size: var(--step-1); }
p, ul, ol, dl { margin: 0 0 var(--space-4); }
a { color: var(--link); text-underline-offset: 0.15em; }
code, pre { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
img, svg, video, iframe { max-width: 100%; }
input, select, textarea, button { font: inherit; color: inherit; max-width: 100%; }
input, select, textarea { background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius); padding: 0.4rem 0.5rem; }
button { padding: 0.45rem 0.95rem; border: 1px solid var(--accent); border-radius: var(--radius); background: var(--accent); color: var(--accent-fg); font-weight: 600; cursor: pointer; }
button:hover { filter: brightness(1.08); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.admin-header { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-4); align-items: center; justify-content: space-between; padding: var(--space-2) var(--space-4); background: var(--surface); border-bottom: 1px solid var(--border); }
.admin-brand { margin: 0; font-weight: 700; font-size: var(--step-1); }
.admin-sign-out { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); align-items: center; margin: 0; }
.admin-sign-out button { background: transparent; color: var(--fg); border-color: var(--border); font-weight: 500; padding: 0.3rem 0.75rem; }
.admin-nav { background: var(--surface); border-bottom: 1px solid var(--border); }
.admin-nav ul { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-2); margin: 0 auto; padding: var(--space-2) var(--space-3); list-style: none; max-width: 72rem; }
.admin-nav a { display: inline-block; padding: 0.3rem 0.6rem; border-radius: var(--radius); text-decoration: none; }
.admin-nav a:hover { background: var(--surface-2); text-decoration: underline; }
.admin-nav a[aria-current="page"] { font-weight: 700; color: var(--fg); background: var(--bg); box-shadow: inset 0 -3px 0 var(--accent); }
main { max-width: 72rem; margin: 0 auto; padding: var(--space-4); }
.admin-form label { display: block; font-weight: 600; margin-bottom: var(--space-1); }
.admin-form input[type="text"], .admin-form input[type="password"], .admin-form input[type="search"], .admin-form input[type="email"], .admin-form select { width: 100%; max-width: 24rem; }
.admin-form textarea { width: 100%; font: 0.95rem/1.4 ui-monospace, monospace; }
.admin-problem { padding: var(--space-2) var(--space-3); border-left: 4px solid var(--problem); background: var(--problem-bg); border-radius: 0 var(--radius) var(--radius) 0; }
.admin-notice { padding: var(--space-2) var(--space-3); border-left: 4px solid var(--accent); background: var(--surface); border-radius: 0 var(--radius) var(--radius) 0; }
.admin-hint { display: block; font-size: var(--step--1); color: var(--muted); }
.admin-table-scroll { position: relative; max-width: 100%; overflow-x: auto; margin: 0 0 var(--space-5); border: 1px solid var(--border); border-radius: var(--radius); }
.admin-table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
.admin-table caption { caption-side: top; text-align: left; font-weight: 600; padding: var(--space-2) var(--space-3); background: var(--surface); border-bottom: 1px solid var(--border); }
.admin-table th, .admin-table td { text-align: left; padding: var(--space-2) var(--space-3); border-bottom: 1px solid var(--border); vertical-align: top; }
.admin-table thead th { font-size: var(--step--1); color: var(--muted); background: var(--surface); white-space: nowrap; }
.admin-table tbody tr:last-child > * { border-bottom: 0; }
.admin-table tbody tr:nth-child(even) { background: var(--surface); }
.admin-table tbody tr:hover { background: var(--surface-2); }
.admin-nowrap, .admin-table time { white-space: nowrap; }
.admin-badge { display: inline-block; padding: 0 0.45rem; border: 1px solid currentColor; border-radius: 999px; font-size: var(--step--1); font-weight: 600; line-height: 1.5; white-space: nowrap; }
.admin-badge-published { color: var(--ok); background: var(--ok-bg); }
.admin-badge-draft { color: var(--neutral); background: var(--neutral-bg); }
.admin-badge-scheduled { color: var(--warn); background: var(--warn-bg); }
.admin-badge-broken { color: var(--problem); background: var(--problem-bg); border-width: 2px; }
.admin-badge-broken::before { content: "! "; }
.admin-row-broken > :first-child { box-shadow: inset 4px 0 0 var(--problem); }
.admin-reason { display: block; margin-top: var(--space-1); font-size: var(--step--1); }
.admin-filter { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: end; margin: 0 0 var(--space-4); padding: var(--space-3); background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); }
.admin-filter > div { flex: 1 1 12rem; }
.admin-filter .admin-filter-buttons { flex: 0 1 auto; display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: center; }
.admin-filter label { margin: 0 0 var(--space-1); }
.admin-filter input[type="search"], .admin-filter select { max-width: none; }
.admin-editor input[type="text"] { max-width: 40rem; }
.admin-check label { display: inline; }
.admin-actions, .admin-version-actions form { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: end; margin: var(--space-4) 0; }
.admin-preview-frame { width: 100%; min-height: 24rem; border: 1px solid var(--border); border-radius: var(--radius); }
.admin-button-link { display: inline-block; padding: 0.4rem 0.9rem; border: 1px solid currentColor; border-radius: var(--radius); font-weight: 600; text-decoration: none; }
.admin-button-link:hover { background: var(--surface-2); }
.admin-facts { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: var(--space-1) var(--space-4); }
.admin-facts dt { font-weight: 600; }
.admin-facts dd { margin: 0; min-width: 0; }
progress { width: 16rem; max-width: 100%; vertical-align: middle; accent-color: var(--accent); }
.admin-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
.admin-inline-form { display: inline-flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin: 0 var(--space-2) var(--space-1) 0; }
.admin-inline-form button { padding: 0.15rem 0.6rem; font-weight: 500; background: transparent; color: var(--link); border-color: var(--border); }
.admin-pager { display: flex; flex-wrap: wrap; gap: var(--space-4); margin: var(--space-4) 0; }
.admin-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: var(--space-3); margin: var(--space-4) 0; padding: 0; list-style: none; }
.admin-tile { padding: var(--space-3) var(--space-4); background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); }
.admin-tile a { display: block; }
.admin-tile-value { display: block; font-size: var(--step-4); font-weight: 700; line-height: 1.1; }
.admin-tile-alarm { border: 2px solid var(--problem); }
.admin-chart { margin: var(--space-4) 0 var(--space-6); }
.admin-chart-title { font-weight: 600; margin-bottom: var(--space-1); }
.admin-chart-svg { display: block; width: 100%; max-width: 40rem; height: auto; }
.admin-chart-bar { fill: var(--chart-mark); }
.admin-chart-line { fill: none; stroke: var(--chart-mark); stroke-width: 3; }
.admin-chart-grid { stroke: var(--chart-grid); stroke-width: 1; stroke-dasharray: 3 3; }
.admin-chart-axis { stroke: currentColor; stroke-width: 1.5; }
.admin-chart-label, .admin-chart-value { fill: currentColor; font-size: 12px; }
.admin-chart-value { font-size: 10px; }
.admin-chart-empty { padding: var(--space-5) var(--space-4); border: 1px dashed var(--border); border-radius: var(--radius); text-align: center; }
.admin-counters td, .admin-counters thead th + th { text-align: right; }
.admin-message { white-space: pre-wrap; overflow-wrap: anywhere; }
details > summary { cursor: pointer; }
.admin-footer { max-width: 72rem; margin: var(--space-6) auto 0; padding: var(--space-3) var(--space-4); border-top: 1px solid var(--border); color: var(--muted); font-size: var(--step--1); }
.admin-footer p { margin: 0; }
@media (max-width: 40rem) {
  main { padding: var(--space-3); }
  h1 { font-size: var(--step-2); }
  .admin-header, .admin-nav ul { padding-left: var(--space-3); padding-right: var(--space-3); }
  .admin-table th, .admin-table td { padding: var(--space-2); }
}
@media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }

/* --- The post editor (post-pages/post-editor-page.tsx, editor-js.ts): writing first, settings beside or below. --- */
main:has(.admin-editor-page) { max-width: 110rem; }
.admin-editor-layout { display: grid; gap: 1rem 2rem; align-items: start; }
.admin-editor-main, .admin-editor-side, .admin-editor-text, .admin-editor-live { min-width: 0; }
.admin-editor-writing { display: grid; gap: 1rem 1.5rem; align-items: start; }
.admin-editor #field-title { max-width: none; font-size: 1.3rem; }
.admin-editor textarea { box-sizing: border-box; width: 100%; min-height: 28rem; padding: 0.5rem; font: 1rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; resize: vertical; }
.admin-editor-toolbar { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0.25rem 0; }
.admin-editor-toolbar[hidden], .admin-editor-live[hidden] { display: none; }
.admin-editor-toolbar button { min-width: 2.5rem; min-height: 2.25rem; padding: 0.2rem 0.5rem; font: inherit; }
.admin-editor-toolbar button[data-format="bold"] { font-weight: 700; }
.admin-editor-toolbar button[data-format="italic"] { font-style: italic; }
.admin-editor-live h2 { margin: 0 0 0.25rem; font-size: 1rem; }
.admin-editor-live .admin-preview-frame { box-sizing: border-box; min-height: 28rem; background: Canvas; }
.admin-editor-settings, .admin-editor-panel { margin: 0 0 1rem; padding: 0.5rem 1rem; border: 1px solid #8886; border-radius: 4px; }
.admin-editor-settings legend, .admin-editor-panel legend { padding: 0 0.25rem; font-weight: 600; }
.admin-editor-side input[type="text"] { box-sizing: border-box; max-width: none; }
.admin-editor-images { margin: 0.5rem 0; padding-left: 1.25rem; }
.admin-editor-images li { margin: 0.25rem 0; overflow-wrap: anywhere; }
.admin-editor-message:empty { display: none; }
.admin-editor-saved { font-size: 0.9rem; opacity: 0.8; }
.admin-draft-offer h2 { margin: 0; font-size: 1.1rem; }
@media (min-width: 60rem) { .admin-editor-layout { grid-template-columns: minmax(0, 1fr) 18rem; } }
@media (min-width: 75rem) { .admin-editor-writing { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
`;
