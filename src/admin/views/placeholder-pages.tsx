// The pages /admin and /admin/posts show until the posts pages replace them (issue 12).
import type { AdminRoute } from '../admin-pages.js';
import { htmlAnswer } from '../render.js';
import { Layout } from './layout.js';

/** /admin and /admin/posts: a heading and a line saying what comes. */
export function createPlaceholderPages(): AdminRoute[] {
  const posts = (_request: unknown, session: Parameters<typeof Layout>[0]['session']) =>
    htmlAnswer(
      200,
      <Layout title="Posts" session={session} section="posts">
        <h1>Posts</h1>
        <p>The list of posts, with writing and publishing in the browser, comes here.</p>
      </Layout>,
    );
  return [
    { path: '/admin', methods: { GET: posts } },
    { path: '/admin/posts', methods: { GET: posts } },
  ];
}
