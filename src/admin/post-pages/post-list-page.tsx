// /admin/posts: the post files and versions with their state (broken ones with a "Broken" badge and the reason they
// are skipped), newest first, 50 a page, searched by title, slug or tag and filtered by state with a GET form that
// works without script (post-list-query.ts); a link to edit each, "View" for the public page of a published one,
// "New post", and "Send to subscribers" for each published version when campaigns can be sent.
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import type { VersionListing } from './post-listing.js';
import { POST_STATES, POSTS_PER_PAGE, postListHref, readPostListQuery, selectPosts, viewUrlsOf, type ListedVersion, type PublicPostLinks } from './post-list-query.js';

const STATE_LABELS = { published: 'Published', draft: 'Draft', scheduled: 'Scheduled', broken: 'Broken' } as const;

/**
 * Whether posts can be sent to a newsletter's subscribers: `ready` (a newsletter form and `[mail] queue` on),
 * `needs_queue` (a newsletter form, but campaigns need the queue), or absent (no newsletter form).
 */
export type NewsletterSending = 'ready' | 'needs_queue';

export interface PostListPageProps {
  session: AdminSession;
  /** Every version the person may change, in any order; the page picks, sorts and cuts them by `query`. */
  versions: readonly (VersionListing & Pick<ListedVersion, 'tags'>)[];
  notice?: string;
  sending?: NewsletterSending;
  /** The request's query string (`q`, `state`, `page`), as the handler got it. */
  query?: string | URLSearchParams;
  /** How public pages are addressed ([site] and [blog]): without them there is no "View" link. */
  links?: PublicPostLinks;
}

function sendPathOf(version: VersionListing): string {
  return `/admin/newsletter/send?${new URLSearchParams({ post: version.slug, lang: version.language }).toString()}`;
}

function StateCell({ version }: { version: VersionListing }) {
  return (
    <>
      <span class={`admin-badge admin-badge-${version.state}`}>{STATE_LABELS[version.state]}</span>
      {version.reason && <span class="admin-reason"> {version.reason}</span>}
    </>
  );
}

export function PostListPage({ session, versions, notice, sending, query, links }: PostListPageProps) {
  const asked = readPostListQuery(query);
  const selection = selectPosts(versions, asked);
  const viewUrls = links ? viewUrlsOf(versions, links) : new Map<string, string>();
  const filtered = asked.q !== '' || asked.state !== undefined;
  const first = (selection.page - 1) * POSTS_PER_PAGE + 1;
  const last = first + selection.versions.length - 1;
  const headings = ['Title', 'Slug', 'Language', 'Date', 'State', ...(links ? [<span class="admin-visually-hidden">Public page</span>] : []), ...(sending === 'ready' ? ['Newsletter'] : [])];
  return (
    <Layout title={filtered ? 'Posts (filtered)' : 'Posts'} session={session} section="posts">
      <h1>Posts</h1>
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>
        <a href="/admin/posts/new" class="admin-button-link">
          New post
        </a>
      </p>
      {versions.length > 0 && (
        <form method="get" action="/admin/posts" class="admin-form admin-filter" role="search" aria-label="Posts">
          <div>
            <label for="posts-q">Title, slug or tag</label>
            <input type="search" id="posts-q" name="q" value={asked.q} />
          </div>
          <div>
            <label for="posts-state">State</label>
            <select id="posts-state" name="state">
              <option value="" selected={asked.state === undefined}>
                Any state
              </option>
              {POST_STATES.map((state) => (
                <option value={state} selected={asked.state === state}>
                  {STATE_LABELS[state]}
                </option>
              ))}
            </select>
          </div>
          <div class="admin-filter-buttons">
            <button type="submit">Show</button>
            {filtered && <a href="/admin/posts">Show all</a>}
          </div>
        </form>
      )}
      {versions.length === 0 ? (
        <p>No posts yet.</p>
      ) : selection.versions.length === 0 ? (
        <p>{selection.matching === 0 ? 'No post matches.' : 'No posts on this page.'}</p>
      ) : (
        <AdminTable
          caption={
            `${filtered ? `${selection.matching} of ${selection.total} posts match` : `${selection.total} ${selection.total === 1 ? 'post' : 'posts'}`}, newest first` +
            (selection.pages > 1 ? `; ${first} to ${last} shown` : '')
          }
          headings={headings}
        >
          {selection.versions.map((version) => {
            const viewUrl = viewUrls.get(version.file);
            return (
              <tr key={version.file} class={version.state === 'broken' ? 'admin-row-broken' : undefined}>
                <td>
                  <a href={`/admin/posts/edit?file=${encodeURIComponent(version.file)}`}>{version.title || version.file}</a>
                </td>
                <td>{version.slug}</td>
                <td>{version.language}</td>
                <td class="admin-nowrap">{version.date ? <Time at={version.date} zone={session.timeZone} /> : '-'}</td>
                <td>
                  <StateCell version={version} />
                </td>
                {links && (
                  <td>
                    {viewUrl && (
                      <a href={viewUrl}>
                        View<span class="admin-visually-hidden"> {version.title || version.slug} ({version.language})</span>
                      </a>
                    )}
                  </td>
                )}
                {sending === 'ready' && <td>{version.state === 'published' && <a href={sendPathOf(version)}>Send to subscribers</a>}</td>}
              </tr>
            );
          })}
        </AdminTable>
      )}
      {(selection.hasNewer || selection.hasOlder) && (
        <nav aria-label="Pages of posts" class="admin-pager">
          {selection.hasNewer && (
            <a href={postListHref(asked, Math.min(selection.page - 1, selection.pages))} rel="prev">
              Newer
            </a>
          )}
          {selection.hasOlder && (
            <a href={postListHref(asked, selection.page + 1)} rel="next">
              Older
            </a>
          )}
        </nav>
      )}
      {sending === 'needs_queue' && (
        <p class="admin-hint">Posts are sent to newsletter subscribers through the mail queue: set [mail] queue = true to send them from here.</p>
      )}
    </Layout>
  );
}
