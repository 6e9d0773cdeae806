// /admin/followers (docs/admin.md "Followers", docs/activitypub.md "Followers"), owners only: how many accounts of the
// fediverse follow the blog, and which, newest first, each with its server. Who follows is not shown publicly (the
// followers collection gives only `totalItems`), so it is shown here alone.
import type { ActivityPubStore, Follower } from '../../activitypub/activitypub-store.js';
import type { AdminPage, AdminRoute } from '../admin-pages.js';
import { htmlAnswer } from '../render.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { Layout } from '../views/layout.js';

export const FOLLOWERS_PATH = '/admin/followers';

/** The rows a page shows at most. */
const SHOWN_ROWS = 1_000;

/** The page; `store` only while [blog.activitypub] is on. */
export function createFollowersPages(deps: { store?: Pick<ActivityPubStore, 'followers'> }): AdminRoute[] {
  const list: AdminPage = async (_request, session) => {
    const followers = deps.store ? (await deps.store.followers()).reverse() : undefined;
    return htmlAnswer(200, <FollowersPage session={session} followers={followers} />);
  };
  return [{ path: FOLLOWERS_PATH, methods: { GET: list } }];
}

/** The server a follower is on. */
function serverOf(follower: Follower): string {
  try {
    return new URL(follower.id).host;
  } catch {
    return '-';
  }
}

export function FollowersPage({ session, followers }: { session: AdminSession; followers: readonly Follower[] | undefined }) {
  return (
    <Layout title="Followers" session={session} section="followers">
      <h1>Followers</h1>
      {followers === undefined ? (
        <p>The blog is not on the fediverse: [blog.activitypub] is off.</p>
      ) : followers.length === 0 ? (
        <p>Nobody follows the blog on the fediverse yet.</p>
      ) : (
        <>
          <p>
            <strong>{followers.length}</strong> {followers.length === 1 ? 'account follows' : 'accounts follow'} the blog on the fediverse.
          </p>
          <AdminTable caption={followers.length > SHOWN_ROWS ? `Newest first, the first ${SHOWN_ROWS}` : 'Newest first'} headings={['Account', 'Server']}>
            {followers.slice(0, SHOWN_ROWS).map((follower) => (
              <tr>
                <td>
                  <a href={follower.id} rel="nofollow noopener noreferrer">
                    {follower.id}
                  </a>
                </td>
                <td>{serverOf(follower)}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </Layout>
  );
}
