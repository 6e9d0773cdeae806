// Real git repositories for tests (docs/admin.md "Posts in git"): a bare remote in a temp folder seeded with posts,
// clones of it, and commits and pushes made the way a person makes them with the git program.
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Someone who commits by hand. */
export const OWNER = { name: 'Olive Owner', email: 'olive@example.org' };

/** Runs git in `cwd` as `who` would; its standard output. Fails the test with git's message. */
export async function git(cwd: string, args: string[], who = OWNER): Promise<string> {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
  };
  try {
    return (await run('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} in ${cwd}: ${failed.stderr ?? failed.message}`);
  }
}

/** Writes `files` (relative paths to texts; null removes one) under `dir`. */
export async function writeFiles(dir: string, files: Record<string, string | null>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    const absolute = path.join(dir, ...file.split('/'));
    if (text === null) await rm(absolute, { recursive: true, force: true });
    else {
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, text);
    }
  }
}

/** A bare repository at `<dir>/remote.git` whose `branch` holds `files` in one commit by OWNER; its path. */
export async function createBareRemote(dir: string, files: Record<string, string>, branch = 'main'): Promise<string> {
  const remote = path.join(dir, 'remote.git');
  await mkdir(remote, { recursive: true });
  await git(remote, ['init', '--quiet', '--bare', '--initial-branch', branch]);
  const seed = path.join(dir, 'seed');
  await mkdir(seed, { recursive: true });
  await git(seed, ['init', '--quiet', '--initial-branch', branch]);
  await writeFiles(seed, files);
  await git(seed, ['add', '--', '.']);
  await git(seed, ['commit', '--quiet', '--allow-empty', '-m', 'Seed the posts']);
  await git(seed, ['push', '--quiet', remote, `HEAD:refs/heads/${branch}`]);
  await rm(seed, { recursive: true, force: true });
  return remote;
}

/** A clone of `remote` at `dir`. */
export async function cloneRemote(remote: string, dir: string): Promise<string> {
  await git(path.dirname(dir), ['clone', '--quiet', remote, dir]);
  return dir;
}

/** Changes `files` in the clone, commits them as `who` with `message` and pushes: what a person's `git push` does. */
export async function pushFromClone(clone: string, files: Record<string, string | null>, message: string, who = OWNER): Promise<void> {
  await git(clone, ['pull', '--quiet', '--rebase'], who);
  await writeFiles(clone, files);
  await git(clone, ['add', '--all', '--', ...Object.keys(files)], who);
  await git(clone, ['commit', '--quiet', '-m', message], who);
  await git(clone, ['push', '--quiet'], who);
}

/** `file` as `ref` of `repo` has it (a bare remote's `main` by default), or undefined. */
export async function fileAt(repo: string, file: string, ref = 'main'): Promise<string | undefined> {
  return git(repo, ['show', `${ref}:${file}`]).catch(() => undefined);
}

/** One commit as a test reads it. */
export interface CommitInfo {
  id: string;
  author: string;
  authorEmail: string;
  committer: string;
  message: string;
  files: string[];
}

/** The commits of `ref` (newest first), at most `count`. */
export async function commitsOf(repo: string, count = 20, ref = 'main'): Promise<CommitInfo[]> {
  const output = await git(repo, ['log', `--max-count=${count}`, '--format=%x1e%H%x1f%an%x1f%ae%x1f%cn%x1f%s', '--name-only', ref, '--']);
  return output
    .split('\x1e')
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [header, ...rest] = record.split('\n');
      const [id, author, authorEmail, committer, message] = header!.split('\x1f') as [string, string, string, string, string];
      return { id, author, authorEmail, committer, message, files: rest.map((line) => line.trim()).filter((line) => line !== '') };
    });
}
