// The git command-line program, run without a shell (docs/admin.md "Posts in git"): every argument is one array
// element, so no file name, message or URL is ever read by a shell. Each run gets the same environment: no prompt
// (a push that needs a password fails instead of waiting for a terminal), pathspecs taken literally (a post named
// `*.md` is that file, not a pattern), messages in English for the few that are read, and no pager.
import { spawn } from 'node:child_process';

/** The oldest git the repository code is written for (`init -b`, `rebase --autostash`, `push --porcelain`). */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 30];

/** What one run of git gave back. */
export interface GitResult {
  /** The exit code; null when the run was stopped (`timeoutMs`). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  /** Variables added to the environment of this run (an author, a date). */
  env?: Record<string, string>;
  /** Written to git's standard input. */
  input?: string;
  /** The run is stopped after this long (a remote that does not answer); code is then null. */
  timeoutMs?: number;
}

/** Runs git with `args` in `cwd`; resolves with whatever it ended with (a failing git is a result, not a throw). */
export type RunGit = (cwd: string, args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

/** The environment every run starts from: the process's (GIT_SSH_COMMAND, HOME for credentials) with these set. */
function baseEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    // A commit must never wait for an editor.
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
  };
}

/** `git` itself, or the program at `program` (a test's wrapper). */
export function createGitRunner(program = 'git'): RunGit {
  return (cwd, args, options = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(program, args, {
        cwd,
        env: { ...baseEnvironment(), ...options.env },
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
      let timedOut = false;
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              child.kill('SIGKILL');
            }, options.timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code: timedOut ? null : code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
      });
      if (options.input !== undefined) child.stdin!.end(options.input);
    });
}

/** A failed run as an Error that says which command failed and git's own last words. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args[0] ?? ''} failed${result.code === null ? ' (timed out)' : ` (exit ${result.code})`}: ${gitReason(result.stderr) || 'no message'}`);
    this.name = 'GitError';
  }
}

/** Runs and throws GitError unless git exits 0; the standard output otherwise. */
export async function gitOrThrow(run: RunGit, cwd: string, args: readonly string[], options?: GitRunOptions): Promise<string> {
  const result = await run(cwd, args, options);
  if (result.code !== 0) throw new GitError(args, result);
  return result.stdout;
}

/**
 * What a log line may say of git's standard error: its last `fatal:`/`error:` line (else its last line), with
 * the user name and password of any URL in it hidden (an https remote may carry a token), at most 300 characters.
 */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const chosen = [...lines].reverse().find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? '';
  return chosen.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@').slice(0, 300);
}

/** [major, minor] of `git --version`'s output ("git version 2.39.5"), or undefined. */
export function parseGitVersion(output: string): [number, number] | undefined {
  const match = /git version (\d+)\.(\d+)/.exec(output);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Whether `version` is at least MIN_GIT_VERSION. */
export function isRecentEnough(version: readonly [number, number]): boolean {
  const [major, minor] = version;
  return major > MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor >= MIN_GIT_VERSION[1]);
}
