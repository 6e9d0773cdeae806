// A content_dir and a trash folder in a temp folder, with the facade over them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createPostFiles, type PostFiles } from '../../../src/admin/posts/post-files.js';
import { createTestClock } from '../../support/clock.js';
import { withTempDir } from '../../support/temp-dir.js';

export interface PostsFixture {
  root: string;
  contentDir: string;
  trashDir: string;
  posts: PostFiles;
  /** Writes `text` to `file` under content_dir, creating its folder. */
  put(file: string, text: string): Promise<void>;
}

/** Runs `body` over a fresh content_dir; the clock stands at 2024-05-01T12:00:00Z. */
export function withPosts(body: (fixture: PostsFixture) => Promise<void>): Promise<void> {
  return withTempDir('admin-posts', async (root) => {
    const contentDir = path.join(root, 'posts');
    const trashDir = path.join(root, 'data', 'trash');
    await mkdir(contentDir);
    const posts = createPostFiles({ contentDir, trashDir, clock: createTestClock() });
    const put = async (file: string, text: string): Promise<void> => {
      await mkdir(path.dirname(path.join(contentDir, file)), { recursive: true });
      await writeFile(path.join(contentDir, file), text);
    };
    await body({ root, contentDir, trashDir, posts, put });
  });
}
