// The newsletter's pages (docs/newsletter.md): confirmation, its button, unsubscribing. Small, self-contained
// HTML rendered by preact-render-to-string, which escapes every text and attribute; each names the site and
// links back to it. Fixed text only: no page repeats an address or a token except in the button's form action.
// No page is for search engines: each says noindex (docs/newsletter.md "Confirming with a button").
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** The site a page names and links back to: `[site] title` or the form's site name, and its address when known. */
export interface PageSite {
  name: string;
  url?: string;
}

/** A page and its status. */
export interface NewsletterPage {
  status: number;
  html: string;
}

/** The pages' one stylesheet, inline (the pages load nothing). */
export const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#222}button{font:inherit;padding:.5rem 1rem}fieldset{border:1px solid #999;padding:.5rem 1rem 1rem;margin:0 0 1rem}label{font-weight:600}.list{margin:.75rem 0}.list p{margin:.1rem 0 0 1.6rem;color:#444}[role=status]{padding:.5rem 1rem;background:#eef6ee;border-left:4px solid #2a7a2a}';

/** The frame of every page: its title, the site named and linked. */
export function Page({ title, site, children }: { title: string; site: PageSite; children?: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* As the X-Robots-Tag header of the routes, for a page saved or served by a proxy that drops it. */}
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${site.name}`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>{title}</h1>
          {children}
          {site.url && (
            <p>
              <a href={site.url}>{`Back to ${site.name}`}</a>
            </p>
          )}
        </main>
      </body>
    </html>
  );
}

/** `page` as a whole document with `status`. */
export function render(status: number, page: ReturnType<typeof Page>): NewsletterPage {
  return { status, html: `<!doctype html>\n${renderToString(page)}\n` };
}

/** A form that POSTs back to the page's own path with `token` in the query, and its one button. */
function ButtonForm({ token, label }: { token: string; label: string }) {
  return (
    <form method="post" action={`?token=${encodeURIComponent(token)}`}>
      <button type="submit">{label}</button>
    </form>
  );
}

/** 200: the subscription is confirmed. */
export function confirmedPage(site: PageSite): NewsletterPage {
  return render(200, <Page title="Subscription confirmed" site={site}><p>{`Thank you: your address is now on the list of ${site.name}. You can close this page.`}</p></Page>);
}

/** 410: unknown, used or expired link, with the way to sign up again. */
export function goneConfirmPage(site: PageSite, ttlHours: number): NewsletterPage {
  const text = `A confirmation link works once and for ${formatHours(ttlHours)}. If you are not subscribed yet, please sign up again on ${site.name} and use the link in the new mail.`;
  return render(410, <Page title="This link is used or expired" site={site}><p>{text}</p></Page>);
}

/** 500: the subscriber line could not be written; the link still works. */
export function confirmNotSavedPage(site: PageSite): NewsletterPage {
  return render(500, <Page title="Your confirmation could not be saved" site={site}><p>Nothing is lost: your link still works. Please open it again in a few minutes.</p></Page>);
}

/** 200: `confirm = "button"`: the button that redeems the token by POST (a GET changes nothing). */
export function confirmButtonPage(site: PageSite, token: string): NewsletterPage {
  return render(200, (
    <Page title="Confirm your subscription" site={site}>
      <p>{`To receive the newsletter of ${site.name}, confirm your subscription.`}</p>
      <ButtonForm token={token} label="Confirm subscription" />
    </Page>
  ));
}

/** 200: the unsubscribe button (a GET, a link scanner's, changes nothing). */
export function unsubscribeButtonPage(site: PageSite, token: string): NewsletterPage {
  return render(200, (
    <Page title="Unsubscribe" site={site}>
      <p>{`Do you want to stop receiving the newsletter of ${site.name}?`}</p>
      <ButtonForm token={token} label="Unsubscribe" />
    </Page>
  ));
}

/** 200: the address is off the list (or was not on it). */
export function unsubscribedPage(site: PageSite): NewsletterPage {
  return render(200, <Page title="You are unsubscribed" site={site}><p>{`You will get no more newsletters from ${site.name}. You can sign up again on the site at any time.`}</p></Page>);
}

/** 400: the unsubscribe link is damaged or not one of ours. */
export function badUnsubscribeLinkPage(site: PageSite): NewsletterPage {
  return render(400, <Page title="This unsubscribe link does not work" site={site}><p>Please use the whole link from the newsletter mail, or answer that mail to ask to be removed.</p></Page>);
}

/** 500: the unsubscription could not be saved; the link keeps working. */
export function unsubscribeNotSavedPage(site: PageSite): NewsletterPage {
  return render(500, <Page title="Your request could not be saved" site={site}><p>Nothing changed yet: please try again in a few minutes.</p></Page>);
}

function formatHours(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
