// /admin/posts: every post file and version with its state (broken ones with the reason they are skipped), a
// link to edit each, "New post", and "Send to subscribers" for each published version when campaigns can be sent.
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';
import type { VersionListing } from './post-listing.js';

const STATE_LABELS = { published: 'Published', draft: 'Draft', scheduled: 'Scheduled', broken: 'Broken' } as const;

/**
 * Whether posts can be sent to a newsletter's subscribers: `ready` (a newsletter form and `[mail] queue` on),
 * `needs_queue` (a newsletter form, but campaigns need the queue), or absent (no newsletter form).
 */
export type NewsletterSending = 'ready' | 'needs_queue';

export interface PostListPageProps {
  session: AdminSession;
  versions: readonly VersionListing[];
  notice?: string;
  sending?: NewsletterSending;
}

function sendPathOf(version: VersionListing): string {
  return `/admin/newsletter/send?${new URLSearchParams({ post: version.slug, lang: version.language }).toString()}`;
}

export function PostListPage({ session, versions, notice, sending }: PostListPageProps) {
  return (
    <Layout title="Posts" session={session} section="posts">
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
      {versions.length === 0 ? (
        <p>No posts yet.</p>
      ) : (
        <AdminTable
          caption="Every post and version in the content folder"
          headings={['Title', 'Slug', 'Language', 'Date', 'State', ...(sending === 'ready' ? ['Newsletter'] : [])]}
        >
          {versions.map((version) => (
            <tr key={version.file}>
              <td>
                <a href={`/admin/posts/edit?file=${encodeURIComponent(version.file)}`}>{version.title || version.file}</a>
              </td>
              <td>{version.slug}</td>
              <td>{version.language}</td>
              <td>{version.date ? <time dateTime={version.date}>{version.date}</time> : '-'}</td>
              <td>
                {STATE_LABELS[version.state]}
                {version.reason && <span class="admin-reason">: {version.reason}</span>}
              </td>
              {sending === 'ready' && <td>{version.state === 'published' && <a href={sendPathOf(version)}>Send to subscribers</a>}</td>}
            </tr>
          ))}
        </AdminTable>
      )}
      {sending === 'needs_queue' && (
        <p class="admin-hint">Posts are sent to newsletter subscribers through the mail queue: set [mail] queue = true to send them from here.</p>
      )}
    </Layout>
  );
}
