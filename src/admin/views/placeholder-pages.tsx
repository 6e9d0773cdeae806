// The pages /admin and /admin/posts show when the configuration has no [blog]: there are no posts to write.
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
        <p>This configuration has no [blog], so there are no posts to write here. Add [site] and [blog] to write and publish posts in the browser.</p>
      </Layout>,
    );
  return [
    { path: '/admin', methods: { GET: posts } },
    { path: '/admin/posts', methods: { GET: posts } },
  ];
}
