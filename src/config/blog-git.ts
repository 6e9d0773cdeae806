// [blog.git] (docs/configuration.md "[blog.git]", docs/admin.md "Posts in git"): content_dir as a git repository,
// every change made through /admin one commit, pushed to `remote` on `branch` and taken in from it every
// `pull_seconds`. What the values may be is decided here; the repository code trusts them.
import path from 'node:path';
import { z } from 'zod';

/** The longest pause between two fetches of the remote: an hour. */
const MAX_PULL_SECONDS = 3600;
/** The shortest non-zero pause: a tenth of a second (tests; a busy remote deserves more). */
const MIN_PULL_SECONDS = 0.1;

/** `https://...`, `ssh://...`, `git://...`, `file://...`: a URL git reads by its scheme. */
const URL_REMOTE = /^(?:https?|ssh|git|file):\/\/[^\s]+$/i;
/** `user@host:path` (or `host:path`): git's scp-like ssh address, a colon before any slash. */
const SCP_REMOTE = /^(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:[^\s]*$/;

/** Why `value` is no remote git may be given, or null. */
export function remoteProblem(value: string): string | null {
  if (value === '' || /[\s\u0000-\u001f\u007f]/.test(value)) return 'must be a git URL without spaces, e.g. "git@github.com:owner/site.git" or "https://git.example.com/site.git"';
  // An option, or git's `<transport>::<address>` (which may run a program): never a remote of this key.
  if (value.startsWith('-')) return 'must not start with "-"';
  if (value.includes('::')) return 'must be an ssh, https, git or file URL, an scp-like "user@host:path" or a folder (no "<transport>::" remote helpers)';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !URL_REMOTE.test(value)) return 'must use the scheme ssh, https, http, git or file';
  return null;
}

/** Whether `remote` names a folder of this machine (not a URL, not scp-like): resolved like the config's other paths. */
export function isLocalRemote(remote: string): boolean {
  if (URL_REMOTE.test(remote)) return false;
  if (remote.startsWith('/') || remote.startsWith('.')) return true;
  return !SCP_REMOTE.test(remote);
}

/** `remote` as git is given it: a relative folder against `baseDir` (the config file's folder), else as written. */
export function resolveRemote(remote: string, baseDir: string): string {
  return isLocalRemote(remote) ? path.resolve(baseDir, remote) : remote;
}

/** Why `value` is no branch name git accepts (`git check-ref-format --branch`, the common rules), or null. */
export function branchProblem(value: string): string | null {
  const problem = 'must be a branch name such as "main" or "site/posts"';
  if (value === '' || value.startsWith('-') || value.endsWith('/') || value.endsWith('.') || value.endsWith('.lock')) return problem;
  if (value.includes('..') || value.includes('//') || value.includes('@{') || value === '@') return problem;
  if (/[\s\u0000-\u001f\u007f~^:?*[\\]/.test(value)) return problem;
  if (value.split('/').some((part) => part.startsWith('.'))) return problem;
  return null;
}

const remote = z.string().superRefine((value, context) => {
  const problem = remoteProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

const branch = z.string().superRefine((value, context) => {
  const problem = branchProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

export const blogGitSchema = z.strictObject({
  enabled: z.boolean().default(false),
  remote: remote.optional(),
  branch: branch.default('main'),
  pull_seconds: z
    .number()
    .min(0, 'must be 0 (no periodic fetch) or more')
    .max(MAX_PULL_SECONDS, `must be at most ${MAX_PULL_SECONDS} (an hour)`)
    .refine((value) => value === 0 || value >= MIN_PULL_SECONDS, `must be 0 (no periodic fetch) or at least ${MIN_PULL_SECONDS}`)
    .default(10),
});

export type BlogGitConfig = z.output<typeof blogGitSchema>;
