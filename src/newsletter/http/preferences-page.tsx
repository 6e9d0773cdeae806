// The preference page (docs/newsletter.md "Preferences"): the address's lists as checkboxes in one fieldset, a Save
// button, and apart a "Leave all lists" button. Both forms POST back with the token in the query; opening the page
// changes nothing. Rendered by preact-render-to-string, which escapes every text and attribute.
import type { PreferencesView } from '../preferences.js';
import { Page, render, type NewsletterPage, type PageSite } from './newsletter-pages.js';

/** What the last POST did, said at the top of the page. */
export type PreferencesNotice = 'saved' | 'left_all';

const NOTICES: Record<PreferencesNotice, string> = {
  saved: 'Your choices are saved.',
  left_all: 'You left every list. You will get no more newsletters from us; you can join a list again here at any time.',
};

/** 200: the lists of the holder of `token`, with a notice after a change. */
export function preferencesPage(site: PageSite, token: string, view: PreferencesView, notice?: PreferencesNotice): NewsletterPage {
  const action = `?token=${encodeURIComponent(token)}`;
  const joinedAny = view.lists.some((list) => list.joined);
  return render(200, (
    <Page title="Your newsletter subscriptions" site={site}>
      {notice && <p role="status">{NOTICES[notice]}</p>}
      <p>{`Choose the lists of ${site.name} that ${view.email} receives. A change needs no new confirmation.`}</p>
      <form method="post" action={action}>
        <input type="hidden" name="action" value="save" />
        <fieldset>
          <legend>Lists</legend>
          {view.lists.length === 0 && <p>There is no list to join at the moment.</p>}
          {view.lists.map((list) => (
            <div class="list" key={list.id}>
              <input
                type="checkbox"
                id={`list-${list.id}`}
                name="lists"
                value={list.id}
                checked={list.joined}
                // A list that is not public can be left here, not joined.
                disabled={!list.public && !list.joined}
                aria-describedby={list.description ? `list-${list.id}-about` : undefined}
              />{' '}
              <label for={`list-${list.id}`}>{list.name}</label>
              {list.description && <p id={`list-${list.id}-about`}>{list.description}</p>}
            </div>
          ))}
        </fieldset>
        <button type="submit">Save my choices</button>
      </form>
      {joinedAny && (
        <form method="post" action={action}>
          <input type="hidden" name="action" value="leave_all" />
          <h2>Leave everything</h2>
          <p>Stop every newsletter of this site to this address.</p>
          <button type="submit">Leave all lists</button>
        </form>
      )}
    </Page>
  ));
}

/** 400: the link is damaged or not one of ours. */
export function badPreferencesLinkPage(site: PageSite): NewsletterPage {
  return render(400, <Page title="This link does not work" site={site}><p>Please use the whole link from a newsletter mail, or answer that mail to ask for a change.</p></Page>);
}

/** 500: a change could not be saved; the page and the link keep working. */
export function preferencesNotSavedPage(site: PageSite): NewsletterPage {
  return render(500, <Page title="Your choices could not be saved" site={site}><p>Some of them may not be saved yet: please open the link again in a few minutes and check.</p></Page>);
}
