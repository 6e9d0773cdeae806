// /admin's posts, editor and History pages over a content folder that is a real git repository (docs/admin.md
// "Posts in git"), through the admin's own guard: the owner olga (of the configuration), the authors ann and bob
// of the account store (bob with an address), writes recorded by the git change log without a remote.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openContentRepository, type ContentRepository } from '../../../src/adapters/git/content-repository.js';
import { createContentSync, type ContentSync } from '../../../src/adapters/git/content-sync.js';
import { createGitRunner } from '../../../src/adapters/git/git-command.js';
import { createGitHistory } from '../../../src/adapters/git/git-history.js';
import type { StoredAccount } from '../../../src/admin/accounts/account.js';
import { createAccounts } from '../../../src/admin/accounts/accounts.js';
import { createHistoryPages } from '../../../src/admin/history-pages/history-pages.js';
import { createPostPages } from '../../../src/admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../../../src/admin/post-pages/preview.js';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { createMarkdownTools } from '../../../src/blog/content/markdown.js';
import { createTestClock, type TestClock } from '../../support/clock.js';
import { writeFiles } from '../../support/git-repos.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { createMemoryAccountStore } from '../../support/memory-accounts.js';
import { createTempDir } from '../../support/temp-dir.js';
import { formPost, startSession, startTestAdmin, testHash, type TestAdmin } from '../admin-app.js';

export interface GitAdmin {
  app: TestAdmin;
  contentDir: string;
  repository: ContentRepository;
  sync: ContentSync;
  clock: TestClock;
  logs: LogCapture;
  /** A signed-in person: GET and POST (with or without their CSRF token) as them. */
  as(name: string): Promise<{
    get(url: string): ReturnType<TestAdmin['inject']>;
    post(url: string, fields: Record<string, string>, withCsrf?: boolean): ReturnType<TestAdmin['inject']>;
    cookie: string;
  }>;
  close(): Promise<void>;
}

/** The pages over a content folder holding `files` (committed first by Postbox), clock at 2024-05-01T12:00Z. */
export async function startGitAdmin(files: Record<string, string>): Promise<GitAdmin> {
  const { dir, remove } = await createTempDir('git-admin');
  const contentDir = path.join(dir, 'posts');
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir);
  await writeFiles(contentDir, files);
  const clock = createTestClock();
  const logs = captureLogs();
  const repository = await openContentRepository({ contentDir, branch: 'main', committer: { name: 'Postbox', email: 'postbox@postbox.invalid' } }, createGitRunner(), clock);
  const hash = await testHash();
  const stored = (name: string, role: StoredAccount['role'], email?: string): StoredAccount => ({ name, role, email, passwordHash: hash, generation: 0, passkeys: [], createdAt: 0 });
  const accounts = createAccounts([{ name: 'olga', password_hash: hash }], createMemoryAccountStore([stored('ann', 'author'), stored('bob', 'author', 'bob@example.org')]));
  const sync = createContentSync({
    repository,
    logger: logs.logger,
    clock,
    identityOf: async (user) => {
      if (user === undefined) return { name: 'Postbox', email: 'postbox@postbox.invalid' };
      return { name: user, email: (await accounts.find(user))?.email ?? `${user}@users.postbox.invalid` };
    },
    pullMs: 0,
  });
  const posts = createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock, changes: sync });
  const pages = [
    ...createPostPages({
      posts,
      listVersions: () => [],
      renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: 1024 * 1024 }),
      maxUploadBytes: 1024 * 1024,
      history: true,
      logger: logs.logger,
    }),
    ...createHistoryPages({ posts, history: createGitHistory(repository), logger: logs.logger }),
  ];
  const app = await startTestAdmin({ dataDir, pages, users: ['olga'], accounts, clock });
  return {
    app,
    contentDir,
    repository,
    sync,
    clock,
    logs,
    async as(name) {
      const session = await startSession(app, name);
      return {
        cookie: session.cookie,
        get: (url) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } }),
        post: (url, fields, withCsrf = true) => app.inject(formPost(url, { ...(withCsrf ? { csrf_token: session.csrf } : {}), ...fields }, { cookie: session.cookie })),
      };
    },
    async close() {
      await app.close();
      await sync.close();
      await remove();
    },
  };
}

/** The value of the hidden field `name` on an HTML page. */
export function fieldOf(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no field ${name}`);
  return value.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, entity: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[entity] ?? '');
}
