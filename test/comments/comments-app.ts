// The blog service with [blog.comments] as `postbox serve` composes it (src/app/compose.ts): a temp content_dir
// with two posts, a temp data_dir, a test clock, /admin on the blog's listener with an owner; driven through its
// front door.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { composeServices, type ComposedServices } from '../../src/app/compose.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { createTestClock, type TestClock } from '../support/clock.js';
import { loadTestConfig } from '../support/config.js';
import { driveService, type InjectedResponse, type ServiceDriver } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';

export const SITE_ORIGIN = 'https://blog.example.com';

export interface CommentsApp {
  service: ServiceDriver;
  clock: TestClock;
  dir: string;
  /** Posts a comment as JSON from the site's origin. */
  post(slug: string, fields: Record<string, unknown>, headers?: Record<string, string>): Promise<InjectedResponse>;
  /** The log lines so far. */
  logs(): Array<Record<string, unknown>>;
  /** A signed-in admin: its cookie and CSRF token. */
  signIn(name: string): Promise<{ cookie: string; csrf: string }>;
  close(): Promise<void>;
}

/**
 * Starts the app; `comments` overrides [blog.comments] (proof of work is off unless asked for), `extra` sets
 * top-level tables (`null` leaves one out: `{ admin: null }` for a blog listener without /admin).
 */
export async function startCommentsApp(comments: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<CommentsApp> {
  const { dir, remove } = await createTempDir('comments');
  const contentDir = path.join(dir, 'posts');
  await mkdir(contentDir, { recursive: true });
  await mkdir(path.join(dir, 'data'));
  await writeFile(path.join(contentDir, 'hello.md'), '---\ntitle: Hello\ndate: 2024-04-01\nauthor: anna\n---\nHello there.\n');
  await writeFile(path.join(contentDir, 'quiet.md'), '---\ntitle: Quiet\ndate: 2024-04-02\ncomments: false\n---\nNo comments here.\n');
  await writeFile(path.join(contentDir, 'draft.md'), '---\ntitle: Draft\ndate: 2024-04-03\ndraft: true\n---\nNot yet.\n');
  await writeFile(path.join(contentDir, 'other.md'), '---\ntitle: Other\ndate: 2024-04-04\nauthor: someone\n---\nAnother post.\n');
  const hash = await testHash();
  const table: Record<string, unknown> = {
    data_dir: 'data',
    site: { title: 'Blog', base_url: SITE_ORIGIN },
    blog: {
      listen: '127.0.0.1:0',
      content_dir: 'posts',
      comments: { enabled: true, allowed_origins: [SITE_ORIGIN], ...comments, spam: { proof_of_work: false, ...(comments.spam as object | undefined) } },
    },
    admin: {
      users: [{ name: 'jane', password_hash: hash }],
    },
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) delete table[key];
    else table[key] = value;
  }
  const config = loadTestConfig(table, dir);
  const clock = createTestClock();
  const logs = captureLogs();
  const composed: ComposedServices = await composeServices(config, { ...logs, clock });
  const service = driveService(composed.services[0]!);
  return {
    service,
    clock,
    dir,
    logs: () => logs.lines(),
    post: (slug, fields, headers = {}) =>
      service.inject({
        method: 'POST',
        url: `/api/blog/posts/${slug}/comments`,
        headers: { 'content-type': 'application/json', origin: SITE_ORIGIN, ...headers },
        payload: JSON.stringify(fields),
      }),
    async signIn(name) {
      const signedIn = await service.inject({
        method: 'POST',
        url: '/admin/login',
        payload: new URLSearchParams({ name, password: PASSWORD }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
      const page = await service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie } });
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
      if (!csrf) throw new Error(`no CSRF token for ${name}: ${page.statusCode}`);
      return { cookie, csrf };
    },
    close: async () => {
      await composed.close();
      await remove();
    },
  };
}
