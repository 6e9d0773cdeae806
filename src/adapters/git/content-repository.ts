// content_dir as a git repository (docs/admin.md "Posts in git"): opened (initialised when it is not one, checked
// out from the remote when it is new), and the few git commands the content needs, each on the files of one change
// only. Nothing here runs `git status` or stages the whole tree: a commit costs the same in 10 posts as in 10,000,
// and what the owner changed by hand and did not commit stays theirs. Paths given in are relative to content_dir;
// git is run at the top of the work tree, so content_dir may be a folder of a larger repository (the site's).
import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { GitError, gitOrThrow, gitReason, isRecentEnough, MIN_GIT_VERSION, parseGitVersion, type RunGit } from './git-command.js';

/** The remote Postbox fetches from and pushes to: the repository's `origin`. */
export const REMOTE_NAME = 'origin';
/** How long a fetch or a push may take before it counts as a remote that cannot be reached. */
const NETWORK_TIMEOUT_MS = 60_000;
/** Where a local commit dropped for the remote's (a rebase conflict) stays reachable, so nothing is collected. */
const SUPERSEDED_REFS = 'refs/postbox/superseded';

/** Who a commit is by (or committed by). */
export interface GitIdentity {
  name: string;
  email: string;
}

export interface RepositorySettings {
  contentDir: string;
  /** The remote's URL; none: commits stay in this repository. */
  remote?: string;
  branch: string;
  /** Who makes the commits of Postbox itself (the first one) and commits everybody's: "Postbox". */
  committer: GitIdentity;
}

export type PushResult = { kind: 'pushed' } | { kind: 'refused' } | { kind: 'failed'; reason: string };
export type FetchResult = { kind: 'fetched' } | { kind: 'no_branch' } | { kind: 'failed'; reason: string };

/** One commit of a file's history, newest first. */
export interface LoggedCommit {
  id: string;
  /** Author time, milliseconds since the epoch. */
  at: number;
  author: string;
  email: string;
  subject: string;
  /** The file's path at that commit, relative to content_dir (a rename is followed). */
  file: string;
  /** The commit added the file at that path (git's status `A`): anything older was another file of the name. */
  created: boolean;
}

export interface ContentRepository {
  /** The top of the work tree. */
  root: string;
  /** content_dir within it: "" or "posts/". */
  prefix: string;
  branch: string;
  hasRemote: boolean;
  /** `file` (relative to content_dir) as the repository names it. */
  repoPath(file: string): string;
  /**
   * Stages exactly `files` (relative to content_dir): those that exist are added, those gone removed. Returns the
   * repository paths that now differ from HEAD (nothing to commit when empty).
   */
  stage(files: readonly string[]): Promise<string[]>;
  /** Commits the staged `paths` only (other staged work stays staged). */
  commit(paths: readonly string[], message: string, author: GitIdentity, at: number): Promise<void>;
  /** The id of the commit checked out. */
  head(): Promise<string>;
  /** Pushes HEAD to the remote's branch; a push still running after `timeoutMs` (default a minute) failed. */
  push(timeoutMs?: number): Promise<PushResult>;
  fetch(): Promise<FetchResult>;
  /** Commits here and not on the remote's branch (as last fetched), and the other way round. */
  divergence(): Promise<{ ahead: number; behind: number }>;
  /** Moves to the remote's branch when it only adds to this one; false (nothing changed) when files here are in the way. */
  fastForward(): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * Replays the local commits on the remote's branch. A commit whose changes overlap the remote's is dropped (the
   * remote's were first) and kept under refs/postbox/superseded/; the ids of those dropped, as they were.
   */
  rebase(at: number): Promise<string[]>;
  /** The commits that changed `file` (following renames), newest first, at most `limit`. */
  log(file: string, limit: number): Promise<LoggedCommit[]>;
  /** The text of `file` (relative to content_dir) at commit `id`, or undefined when it had none. */
  show(id: string, file: string): Promise<string | undefined>;
}

/** A user's settings that would change a commit or a listing: no signing (which may wait for a key), names unquoted. */
const QUIET_CONFIG = ['-c', 'commit.gpgsign=false', '-c', 'core.quotePath=false'];

/**
 * Opens content_dir as a repository: `git init` when it is in none (on `branch`), `origin` added when there is a
 * remote and no origin yet, a new repository checked out from the remote's branch when it has one, and a first
 * commit when the repository has none. Throws an Error for the owner (and `serve` does not start) when git is
 * missing or older than 2.30, the repository is on another branch, `origin` is another URL, or files of
 * content_dir would be overwritten by the remote's.
 */
export async function openContentRepository(settings: RepositorySettings, run: RunGit, clock: () => number): Promise<ContentRepository> {
  const { contentDir, branch, remote, committer } = settings;
  await checkGitVersion(run, contentDir);
  let fresh = false;
  const found = await run(contentDir, ['rev-parse', '--show-toplevel']);
  if (found.code !== 0) {
    if (!/not a git repository/i.test(found.stderr)) throw new Error(`blog.git: content_dir cannot be opened as a git repository: ${gitReason(found.stderr)}`);
    await gitOrThrow(run, contentDir, ['init', '--quiet', '--initial-branch', branch]);
    fresh = true;
  }
  const root = (await gitOrThrow(run, contentDir, ['rev-parse', '--show-toplevel'])).trim();
  const prefix = (await gitOrThrow(run, contentDir, ['rev-parse', '--show-prefix'])).trim();
  const current = await run(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (current.code !== 0) throw new Error(`blog.git: the repository of content_dir (${root}) has no branch checked out; check out "${branch}"`);
  if (current.stdout.trim() !== branch) {
    throw new Error(`blog.git: the repository of content_dir (${root}) is on the branch "${current.stdout.trim()}", and blog.git.branch is "${branch}"; check out "${branch}" or change the key`);
  }
  if (remote !== undefined) {
    const origin = await run(root, ['remote', 'get-url', REMOTE_NAME]);
    if (origin.code !== 0) await gitOrThrow(run, root, ['remote', 'add', REMOTE_NAME, remote]);
    else if (origin.stdout.trim() !== remote) {
      throw new Error(`blog.git: the repository's remote "${REMOTE_NAME}" is ${origin.stdout.trim()}, and blog.git.remote is ${remote}; make them the same`);
    }
  }
  const repository = createRepository(run, { root, prefix, branch, hasRemote: remote !== undefined, committer });
  if (!(await hasCommit(run, root, 'HEAD'))) await startHistory(run, repository, { fresh, committer, at: clock() });
  return repository;
}

async function checkGitVersion(run: RunGit, cwd: string): Promise<void> {
  const minimum = MIN_GIT_VERSION.join('.');
  let output: string;
  try {
    output = (await run(cwd, ['--version'])).stdout;
  } catch {
    throw new Error(`blog.git: the git program was not found; install git ${minimum} or newer`);
  }
  const version = parseGitVersion(output);
  if (!version || !isRecentEnough(version)) throw new Error(`blog.git: git ${minimum} or newer is needed (found: ${output.trim() || 'no version'})`);
}

async function hasCommit(run: RunGit, root: string, ref: string): Promise<boolean> {
  return (await run(root, ['rev-parse', '--quiet', '--verify', `${ref}^{commit}`])).code === 0;
}

/**
 * A repository without commits: the remote's branch checked out when there is one (the way a clone starts; files
 * of content_dir it would overwrite stop the start, nothing is lost), else a first commit: with content_dir's
 * files when Postbox made the repository just now, empty when the owner made it (their files are theirs to add).
 */
async function startHistory(run: RunGit, repository: ContentRepository, start: { fresh: boolean; committer: GitIdentity; at: number }): Promise<void> {
  const { root, branch } = repository;
  if (repository.hasRemote && (await repository.fetch()).kind === 'fetched') {
    const checkout = await run(root, ['checkout', '--quiet', '-B', branch, trackingRef(branch)]);
    if (checkout.code !== 0) {
      // git lists the files in the way one a line, indented.
      const inTheWay = checkout.stderr.split('\n').filter((line) => line.startsWith('\t')).map((line) => line.trim());
      const reason = inTheWay.length > 0 ? `its files ${inTheWay.slice(0, 10).join(', ')}${inTheWay.length > 10 ? ', ...' : ''} would be overwritten` : gitReason(checkout.stderr);
      throw new Error(`blog.git: content_dir cannot take the remote's "${branch}": ${reason}. Start from an empty content_dir, or move those files away`);
    }
    return;
  }
  if (start.fresh) await gitOrThrow(run, root, ['add', '--', '.']);
  await gitOrThrow(run, root, [...QUIET_CONFIG, 'commit', '--quiet', '--no-verify', '--allow-empty', '-m', 'Start the history of the posts'], {
    env: identityEnv(start.committer, start.committer, start.at),
  });
}

/** The remote's branch as this repository last fetched it. */
function trackingRef(branch: string): string {
  return `refs/remotes/${REMOTE_NAME}/${branch}`;
}

/** The environment of a commit by `author`, committed by `committer`, both dated `at`. */
function identityEnv(author: GitIdentity, committer: GitIdentity, at: number): Record<string, string> {
  const date = `@${Math.floor(at / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: date,
  };
}

/** NUL-separated names, as `-z` prints them. */
function namesOf(output: string): string[] {
  return output.split('\0').filter((name) => name !== '');
}

function createRepository(
  run: RunGit,
  shape: { root: string; prefix: string; branch: string; hasRemote: boolean; committer: GitIdentity },
): ContentRepository {
  const { root, prefix, branch, hasRemote, committer } = shape;
  const repoPath = (file: string) => `${prefix}${file}`;
  const tracking = trackingRef(branch);
  const git = (args: readonly string[], options?: Parameters<RunGit>[2]) => gitOrThrow(run, root, args, options);
  const rebaseInProgress = async () => {
    const gitPath = (await git(['rev-parse', '--git-path', 'rebase-merge'])).trim();
    return existsSync(path.resolve(root, gitPath)) || existsSync(path.resolve(root, (await git(['rev-parse', '--git-path', 'rebase-apply'])).trim()));
  };

  return {
    root,
    prefix,
    branch,
    hasRemote,
    repoPath,
    async stage(files) {
      const paths = files.map(repoPath);
      const present: string[] = [];
      const gone: string[] = [];
      for (const file of paths) {
        const there = await lstat(path.join(root, ...file.split('/'))).then(() => true, () => false);
        (there ? present : gone).push(file);
      }
      if (present.length > 0) await git(['add', '--', ...present]);
      if (gone.length > 0) await git(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ...gone]);
      return namesOf(await git(['diff', '--cached', '--name-only', '--no-renames', '-z', 'HEAD', '--', ...paths]));
    },
    async commit(paths, message, author, at) {
      await git([...QUIET_CONFIG, 'commit', '--quiet', '--no-verify', '--only', '-m', message, '--', ...paths], { env: identityEnv(author, committer, at) });
    },
    head: async () => (await git(['rev-parse', 'HEAD'])).trim(),
    async push(timeoutMs = NETWORK_TIMEOUT_MS) {
      const result = await run(root, ['push', '--porcelain', '--no-verify', REMOTE_NAME, `HEAD:refs/heads/${branch}`], { timeoutMs });
      if (result.code === 0) return { kind: 'pushed' };
      // `!<tab>from:to<tab>[rejected] (fetch first)`: the remote moved on; so did it when another push took the
      // branch's lock between this one's look and its update. A hook's refusal is a failure like any other.
      const refusal = /^!\t[^\t]*\t(.*)$/m.exec(result.stdout)?.[1] ?? '';
      if (refusal.startsWith('[rejected]') || /cannot lock ref|failed to update ref|incorrect old value/.test(refusal)) return { kind: 'refused' };
      return { kind: 'failed', reason: result.code === null ? 'timed out' : refusal || gitReason(result.stderr) };
    },
    async fetch() {
      const result = await run(root, ['fetch', '--quiet', '--no-tags', REMOTE_NAME, `+refs/heads/${branch}:${tracking}`], { timeoutMs: NETWORK_TIMEOUT_MS });
      if (result.code === 0) return { kind: 'fetched' };
      if (/couldn't find remote ref/i.test(result.stderr)) return { kind: 'no_branch' };
      return { kind: 'failed', reason: result.code === null ? 'timed out' : gitReason(result.stderr) };
    },
    async divergence() {
      if (!(await hasCommit(run, root, tracking))) return { ahead: Number((await git(['rev-list', '--count', 'HEAD'])).trim()), behind: 0 };
      const [ahead, behind] = (await git(['rev-list', '--left-right', '--count', `HEAD...${tracking}`])).trim().split(/\s+/).map(Number);
      return { ahead: ahead ?? 0, behind: behind ?? 0 };
    },
    async fastForward() {
      const result = await run(root, ['merge', '--ff-only', '--quiet', tracking]);
      return result.code === 0 ? { ok: true } : { ok: false, reason: gitReason(result.stderr) };
    },
    async rebase(at) {
      const env = identityEnv(committer, committer, at);
      const dropped: string[] = [];
      const local = (await git(['rev-list', `${tracking}..HEAD`])).split('\n').filter((line) => line !== '');
      // A first commit made while the remote could not be reached is empty: it is not replayed.
      let result = await run(root, [...QUIET_CONFIG, 'rebase', '--quiet', '--autostash', '--no-verify', '--no-keep-empty', tracking], { env });
      // Each stop is a commit whose changes overlap the remote's: the remote's stay, the commit is skipped.
      for (let stops = 0; result.code !== 0; stops += 1) {
        const stopped = await run(root, ['rev-parse', '--quiet', '--verify', 'REBASE_HEAD']);
        if (stopped.code !== 0 || stops > local.length) {
          if (await rebaseInProgress()) await run(root, ['rebase', '--abort'], { env });
          throw new GitError(['rebase'], result);
        }
        const id = stopped.stdout.trim();
        dropped.push(id);
        await git(['update-ref', `${SUPERSEDED_REFS}/${id}`, id]);
        result = await run(root, [...QUIET_CONFIG, 'rebase', '--skip'], { env });
      }
      return dropped;
    },
    async log(file, limit) {
      const output = await git([
        ...QUIET_CONFIG,
        'log',
        '--follow',
        `--max-count=${limit}`,
        '--format=%x1e%H%x1f%at%x1f%an%x1f%ae%x1f%s',
        '--name-status',
        '--',
        repoPath(file),
      ]);
      const commits: LoggedCommit[] = [];
      for (const record of output.split('\x1e')) {
        const [header, ...rest] = record.split('\n');
        const [id, seconds, author, email, subject] = (header ?? '').split('\x1f');
        // "M\tpath", "A\tpath", "D\tpath" or "R100\told\tnew": the path the file had after the commit comes last.
        const status = rest.map((line) => line.trim()).find((line) => line !== '')?.split('\t');
        const named = status?.at(-1);
        if (!id || !status || status.length < 2 || !named || !named.startsWith(prefix)) continue;
        const created = status[0] === 'A';
        commits.push({ id, at: Number(seconds) * 1000, author: author ?? '', email: email ?? '', subject: subject ?? '', file: named.slice(prefix.length), created });
      }
      return commits;
    },
    async show(id, file) {
      const result = await run(root, ['cat-file', 'blob', `${id}:${repoPath(file)}`]);
      return result.code === 0 ? result.stdout : undefined;
    },
  };
}
