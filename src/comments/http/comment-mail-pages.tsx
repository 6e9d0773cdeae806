// The pages of the links in comment mails (docs/comments.md "Reply notifications", "The owner's mail"): small,
// self-contained HTML rendered by preact-render-to-string, which escapes every text and attribute. Fixed text
// only: no page shows an address, a comment's author or its text; a token appears only in the button's form action.
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface CommentMailPage {
  status: number;
  html: string;
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#222}button{font:inherit;padding:.5rem 1rem}';

function Page({ title, site, children }: { title: string; site: string; children?: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} · ${site}`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

function render(status: number, page: ReturnType<typeof Page>): CommentMailPage {
  return { status, html: `<!doctype html>\n${renderToString(page)}\n` };
}

/** A form that POSTs back to the page's own path with the same query, and its one button. */
function ButtonForm({ query, label }: { query: string; label: string }) {
  return (
    <form method="post" action={`?${query}`}>
      <button type="submit">{label}</button>
    </form>
  );
}

export function confirmButtonPage(site: string, query: string): CommentMailPage {
  return render(200, (
    <Page title="Confirm reply notifications" site={site}>
      <p>{`To get a mail when somebody replies to your comment on ${site}, confirm with the button.`}</p>
      <ButtonForm query={query} label="Confirm" />
    </Page>
  ));
}

export function confirmedPage(site: string): CommentMailPage {
  return render(200, <Page title="Reply notifications confirmed" site={site}><p>{`You will get a mail when a reply to your comment is published on ${site}. Each mail has a link to stop them.`}</p></Page>);
}

export function goneConfirmPage(site: string): CommentMailPage {
  return render(410, <Page title="This link is used or expired" site={site}><p>A confirmation link works once and for 48 hours. Tick the box again with your next comment to get a new one.</p></Page>);
}

export function unsubscribeButtonPage(site: string, query: string, thread: boolean): CommentMailPage {
  const question = thread ? 'Stop the mails about replies to this comment?' : `Stop every mail about replies from ${site}?`;
  return render(200, (
    <Page title="Stop reply notifications" site={site}>
      <p>{question}</p>
      <ButtonForm query={query} label="Stop them" />
    </Page>
  ));
}

export function unsubscribedPage(site: string): CommentMailPage {
  return render(200, <Page title="No more reply notifications" site={site}><p>Done: no more of these mails are sent to you.</p></Page>);
}

export function badLinkPage(site: string): CommentMailPage {
  return render(400, <Page title="This link does not work" site={site}><p>Please use the whole link from the mail.</p></Page>);
}

export function moderateButtonPage(site: string, query: string, action: 'approve' | 'spam'): CommentMailPage {
  return render(200, (
    <Page title={action === 'approve' ? 'Approve the comment' : 'Mark the comment as spam'} site={site}>
      <p>{action === 'approve' ? 'The comment is published once you press the button.' : 'The comment is hidden once you press the button.'}</p>
      <ButtonForm query={query} label={action === 'approve' ? 'Approve' : 'Mark spam'} />
    </Page>
  ));
}

export function moderatedPage(site: string, outcome: 'approved' | 'spam'): CommentMailPage {
  return render(200, <Page title={outcome === 'approved' ? 'The comment is published' : 'The comment is marked as spam'} site={site}><p>/admin/comments shows it and every other comment.</p></Page>);
}

export function goneModeratePage(site: string): CommentMailPage {
  return render(410, <Page title="This link is used or expired" site={site}><p>An Approve or Spam link works once and for 7 days. /admin/comments decides on every comment.</p></Page>);
}
