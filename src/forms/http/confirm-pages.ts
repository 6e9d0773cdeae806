// The three confirmation pages (docs/newsletter.md "The flow"): small, valid, self-contained HTML
// with fixed text only, and the status each is answered with.
import type { ConfirmOutcome } from '../newsletter/index.js';

/** A page and its status: 200 confirmed, 410 unknown, used or expired, 500 could not be saved. */
export interface ConfirmPage {
  status: 200 | 410 | 500;
  html: string;
}

const PAGES: Record<ConfirmOutcome, { status: ConfirmPage['status']; title: string; text: (ttlHours: number) => string }> = {
  confirmed: {
    status: 200,
    title: 'Subscription confirmed',
    text: () => 'Thank you: your address is now on the list. You can close this page.',
  },
  gone: {
    status: 410,
    title: 'This link is used or expired',
    text: (ttlHours) =>
      `A confirmation link works once and for ${formatHours(ttlHours)}. ` +
      'If you are not subscribed yet, please sign up again and use the link in the new mail.',
  },
  not_saved: {
    status: 500,
    title: 'Your confirmation could not be saved',
    text: () => 'Nothing is lost: your link still works. Please open it again in a few minutes.',
  },
};

/** The page of `kind`; `ttlHours` is the form's link lifetime, named on the expired page. */
export function confirmPage(kind: ConfirmOutcome, ttlHours: number): ConfirmPage {
  const page = PAGES[kind];
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#222}</style>
</head>
<body>
<main>
<h1>${page.title}</h1>
<p>${page.text(ttlHours)}</p>
</main>
</body>
</html>
`;
  return { status: page.status, html };
}

function formatHours(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
