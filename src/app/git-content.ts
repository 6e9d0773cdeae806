// [blog.git] wired (docs/admin.md "Posts in git"): content_dir opened as a git repository before the blog loads it
// (a new replica's checkout comes from the remote), the change log /admin's post files record into, the history
// its History pages read, and the signal between replicas when the records are in PostgreSQL.
import type { Backend } from '../adapters/backend.js';
import { openContentRepository, type GitIdentity } from '../adapters/git/content-repository.js';
import { createContentSync, type ContentSignal } from '../adapters/git/content-sync.js';
import { createGitRunner } from '../adapters/git/git-command.js';
import { createGitHistory } from '../adapters/git/git-history.js';
import { createAccounts } from '../admin/accounts/accounts.js';
import type { PostHistory } from '../admin/history-pages/post-history.js';
import type { PostChangeLog } from '../admin/posts/post-changes.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import { openContentSignal } from './open-backend.js';

/** The committer of every commit, and the author of Postbox's own (the first one). */
export const POSTBOX_IDENTITY: GitIdentity = { name: 'Postbox', email: 'postbox@postbox.invalid' };

/** What /admin gets of the repository. */
export interface GitContent {
  changes: PostChangeLog;
  history: PostHistory;
  close(): Promise<void>;
}

/** A user's name as the local part of the address their commits carry when their account has none. */
function localPartOf(user: string): string {
  return user.replace(/[^A-Za-z0-9._+-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '') || 'user';
}

/**
 * The repository of `config`'s [blog.git], or undefined when it is not enabled. Rejects (and `serve` does not
 * start) when content_dir cannot be the repository the keys describe.
 */
export async function composeGitContent(
  config: Config,
  parts: { backend: Pick<Backend, 'accounts'>; logger: Logger; clock: Clock; signal?: ContentSignal },
): Promise<GitContent | undefined> {
  const settings = config.blog?.git;
  if (!config.blog || !settings?.enabled) return undefined;
  const { logger, clock } = parts;
  const repository = await openContentRepository(
    { contentDir: config.blog.content_dir, remote: settings.remote, branch: settings.branch, committer: POSTBOX_IDENTITY },
    createGitRunner(),
    clock,
  );
  const accounts = config.admin ? createAccounts(config.admin.users, parts.backend.accounts) : undefined;
  // The signed-in user's name, and their address when their account has one (docs/admin.md "Posts in git").
  const identityOf = async (user: string | undefined): Promise<GitIdentity> => {
    if (user === undefined) return POSTBOX_IDENTITY;
    const account = await accounts?.find(user).catch(() => undefined);
    return { name: user, email: account?.email ?? `${localPartOf(user)}@users.postbox.invalid` };
  };
  const signal = settings.remote === undefined ? undefined : (parts.signal ?? openContentSignal(config, logger));
  const sync = createContentSync({ repository, logger, clock, identityOf, signal, pullMs: settings.pull_seconds * 1000 });
  logger.info(
    { event: 'content_repository', root: repository.root, branch: repository.branch, remote: settings.remote !== undefined, signal: signal !== undefined },
    'blog.git: posts are committed',
  );
  // What the remote got while this process was not running is taken in at once, not at the first pull_seconds.
  void sync.sync();
  return { changes: sync, history: createGitHistory(repository), close: () => sync.close() };
}
