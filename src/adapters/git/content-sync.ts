// The post change log over a git repository (docs/admin.md "Posts in git"): each change of /admin one commit by
// the person who made it, pushed to the remote at once; the remote taken in every `pull_seconds` and whenever
// another replica says it pushed. One queue per process runs the writes of /admin and these syncs one after
// another, so a save never meets a half-done pull.
//
// A refused push (the remote moved on) fetches and replays the local commits on the remote's branch: changes to
// other lines go through and are pushed again; a commit whose lines the remote changed too is dropped, the remote
// keeping its own (it was first), and the write that made it hears `superseded` (its page: the 409 that keeps the
// text). A remote that cannot be reached is a warning: the commit stays here and goes with the next push.
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import { systemTimers } from '../../kit/timers.js';
import type { Timers } from '../../ports.js';
import type { ChangeAction, PostChange, PostChangeLog, RecordOutcome } from '../../admin/posts/post-changes.js';
import type { ContentRepository, GitIdentity } from './content-repository.js';

/** Pushes refused in a row (another replica pushing each time) before this round gives up until the next sync. */
const MAX_ROUNDS = 5;
/**
 * How long the push of a new commit may take before the save answers anyway (the commit stays here and goes with
 * the next push): a remote that does not answer must not hold a page past a proxy's time-out.
 */
const SAVE_PUSH_TIMEOUT_MS = 15_000;

/** How a change is named in the history: "Edit posts/hello.md". */
const VERBS: Record<ChangeAction, string> = {
  create: 'Create',
  edit: 'Edit',
  publish: 'Publish',
  unpublish: 'Unpublish',
  translate: 'Add translation',
  delete: 'Delete',
  upload_image: 'Upload image',
  delete_image: 'Delete image',
  restore: 'Restore',
};

/** The commit message of `change`, its file named as the repository names it. */
export function messageOf(change: Pick<PostChange, 'action' | 'subject' | 'restored'>, repoPath: (file: string) => string): string {
  const subject = repoPath(change.subject);
  return change.action === 'restore' ? `Restore ${subject} to ${change.restored ?? 'an earlier version'}` : `${VERBS[change.action]} ${subject}`;
}

/** Tells the other replicas that the remote moved, and hears them say it (adapters/git/postgres-signal.ts). */
export interface ContentSignal {
  send(): Promise<void>;
  /** `onSignal` runs when another replica sent one. */
  listen(onSignal: () => void): void;
  close(): Promise<void>;
}

export interface ContentSyncDeps {
  repository: ContentRepository;
  logger: Logger;
  /** Dates commits (author and committer). */
  clock: () => number;
  /** The name and address a change of `user` is authored as; undefined: Postbox's own. */
  identityOf(user: string | undefined): Promise<GitIdentity>;
  signal?: ContentSignal;
  /** blog.git.pull_seconds in milliseconds; 0: no periodic fetch. */
  pullMs: number;
  /** What the periodic fetch waits on: Node's unless a test drives them. */
  timers?: Timers;
}

export interface ContentSync extends PostChangeLog {
  /** Takes in the remote's branch now (and pushes what is only here); resolves once done. Queued like a write. */
  sync(): Promise<void>;
  /** Stops the periodic fetch and the signal, after what is queued. */
  close(): Promise<void>;
}

/** The change log over `repository`; the periodic fetch starts at once when there is a remote. */
export function createContentSync(deps: ContentSyncDeps): ContentSync {
  const { repository, logger, clock, signal } = deps;
  const timers = deps.timers ?? systemTimers;
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
  // Whether the remote failed last time: a remote that stays away is one warning, not one per fetch.
  let remoteDown = false;
  const remoteFailed = (action: 'push' | 'fetch', reason: string, always: boolean) => {
    if (always || !remoteDown) {
      logger.warn({ event: `content_${action}_failed`, reason }, `blog.git: the remote cannot be reached (${action}); commits stay here and are pushed at the next attempt`);
    }
    remoteDown = true;
  };
  const remoteAnswered = () => {
    if (remoteDown) logger.info({ event: 'content_remote_reachable' }, 'blog.git: the remote answers again');
    remoteDown = false;
  };
  // Whether files changed by hand keep the last fast-forward out: one warning until one goes through.
  let pullBlocked = false;

  /**
   * Brings this repository and the remote's branch together: fast-forward or rebase onto it, then push what is
   * only here. `newCommit`: HEAD is a commit just made (a change): it is pushed at once, and fetched for only when
   * refused; else (a sync) the remote is fetched first. Answers whether the new commit was dropped for the remote's.
   */
  const settle = async (newCommit: boolean): Promise<{ superseded: boolean }> => {
    let superseded = false;
    let needFetch = !newCommit;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      if (needFetch) {
        const fetched = await repository.fetch();
        if (fetched.kind === 'failed') {
          remoteFailed('fetch', fetched.reason, newCommit);
          return { superseded };
        }
        remoteAnswered();
      }
      // A new commit goes out first, without a look at the remote: most pushes are not refused.
      let { ahead, behind } = round === 0 && newCommit ? { ahead: 1, behind: 0 } : await repository.divergence();
      if (behind > 0) {
        if (ahead === 0) {
          const moved = await repository.fastForward();
          if (moved.ok) logger.info({ event: 'content_pulled', commits: behind }, 'blog.git: took in the remote\u2019s commits');
          else if (!pullBlocked) logger.warn({ event: 'content_pull_blocked', reason: moved.reason }, 'blog.git: the remote\u2019s commits cannot be taken in: files changed here by hand are in the way');
          pullBlocked = !moved.ok;
          return { superseded };
        }
        // The new commit is the last one here until it is dropped; a rebase gives it another id each time.
        const own = newCommit && !superseded ? await repository.head() : undefined;
        const dropped = await repository.rebase(clock());
        for (const id of dropped) {
          if (id === own) superseded = true;
          logger.warn(
            { event: 'content_change_superseded', commit: id, kept_as: `refs/postbox/superseded/${id}` },
            'blog.git: a change here overlapped one already on the remote; the remote\u2019s is kept',
          );
        }
        logger.info({ event: 'content_pulled', commits: behind }, 'blog.git: took in the remote\u2019s commits');
        ({ ahead } = await repository.divergence());
      }
      if (ahead === 0) return { superseded };
      const pushed = await repository.push(newCommit ? SAVE_PUSH_TIMEOUT_MS : undefined);
      if (pushed.kind === 'pushed') {
        remoteAnswered();
        logger.info({ event: 'content_pushed' }, 'blog.git: pushed');
        await signal?.send().catch((error: unknown) => logger.warn({ event: 'content_signal_failed', reason: safeReason(error) }, 'blog.git: the other replicas were not told of the push; they see it at their next fetch'));
        return { superseded };
      }
      if (pushed.kind === 'failed') {
        remoteFailed('push', pushed.reason, newCommit);
        return { superseded };
      }
      // Refused: the remote has commits this repository has not; fetch them and go round again.
      needFetch = true;
    }
    logger.warn({ event: 'content_push_failed', reason: 'refused' }, 'blog.git: the remote kept moving; the commits are pushed at the next attempt');
    return { superseded };
  };

  const record = async (change: PostChange): Promise<RecordOutcome> => {
    const message = messageOf(change, repository.repoPath);
    try {
      const paths = await repository.stage(change.paths);
      if (paths.length === 0) return { ok: true };
      const author = await deps.identityOf(change.author);
      await repository.commit(paths, message, author, clock());
      logger.info({ event: 'content_committed', message, author: author.name }, 'blog.git: committed');
    } catch (error) {
      // The file is written and served; only its commit is missing. The next change of the same file commits it.
      logger.error({ event: 'content_commit_failed', message, reason: (error as Error).message }, 'blog.git: the change is saved but not committed');
      return { ok: true };
    }
    if (!repository.hasRemote) return { ok: true };
    try {
      const { superseded } = await settle(true);
      return superseded ? { ok: false, kind: 'superseded' } : { ok: true };
    } catch (error) {
      logger.error({ event: 'content_sync_failed', reason: (error as Error).message }, 'blog.git: the commit could not be brought together with the remote; it stays here');
      return { ok: true };
    }
  };

  let pending: Promise<void> | undefined;
  const sync = (): Promise<void> => {
    if (!repository.hasRemote) return Promise.resolve();
    pending ??= exclusive(async () => {
      pending = undefined;
      try {
        await settle(false);
      } catch (error) {
        logger.error({ event: 'content_sync_failed', reason: (error as Error).message }, 'blog.git: taking in the remote failed; trying again at the next fetch');
      }
    });
    return pending;
  };

  let closed = false;
  let timer: unknown;
  const arm = () => {
    if (closed || deps.pullMs <= 0 || !repository.hasRemote) return;
    timer = timers.setTimeout(() => {
      timer = undefined;
      void sync().finally(arm);
    }, deps.pullMs);
  };
  signal?.listen(() => {
    if (!closed) void sync();
  });
  arm();

  return {
    exclusive,
    record,
    sync,
    async close() {
      closed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      await signal?.close();
      await tail;
    },
  };
}
