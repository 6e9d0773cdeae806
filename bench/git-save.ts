// A save through /admin at 5,000 posts with [blog.git] (docs/admin.md "Posts in git"): each save one commit, pushed
// to a bare remote on this machine, beside the same save by a `postbox serve` without git over the same corpus
// (docs/performance.md "A save with git"). The two servers take turns save by save; only the POST of the save is
// timed (the editor is opened before it, as a person does). Target: the save with git under 1 s at the 95th
// percentile; the remote must hold one commit per save.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { hashPassword } from '../src/kit/password-hash.js';
import type { BenchContext } from './lib/context.js';
import { generateCorpus } from './lib/corpus.js';
import { startPostbox, type RunningPostbox } from './lib/processes.js';
import { formatMs } from './lib/report.js';

const SECTION = 'git save';
const POSTS = 5_000;
const SAVES = 40;
const P95_TARGET_MS = 1_000;
const PASSWORD = 'the owner of the bench blog';

/** git as the bench itself runs it (the corpus's first commit and the bare remote), as a person would. */
function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.org', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.org' },
  });
}

interface Contender {
  name: string;
  postbox: RunningPostbox;
  base: string;
  cookie: string;
  csrf: string;
  timings: number[];
}

export async function benchGitSave(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section(`A save through /admin at ${POSTS.toLocaleString('en-US')} posts: with git (commit, push to a bare remote) beside without`);
  const dir = path.join(context.tmpRoot, 'git-save');
  const plainDir = path.join(dir, 'plain');
  const gitDir = path.join(dir, 'git');
  const corpus = generateCorpus(plainDir, { posts: POSTS, seed: 5000 });
  generateCorpus(gitDir, { posts: POSTS, seed: 5000 });
  // The git side starts as a clone would: every post committed and on the remote.
  const remote = path.join(dir, 'remote.git');
  mkdirSync(remote);
  git(remote, ['init', '--quiet', '--bare', '--initial-branch', 'main']);
  git(gitDir, ['init', '--quiet', '--initial-branch', 'main']);
  git(gitDir, ['add', '--', '.']);
  git(gitDir, ['commit', '--quiet', '-m', 'The corpus']);
  git(gitDir, ['remote', 'add', 'origin', remote]);
  git(gitDir, ['push', '--quiet', 'origin', 'main']);
  report.note(`corpus: ${corpus.files} files, ${(corpus.bytes / 1024 / 1024).toFixed(1)} MB, in a repository of one commit pushed to ${remote}`);

  const hash = await hashPassword(PASSWORD, Buffer.alloc(16, 5), { N: 16384, r: 8, p: 1 });
  const configOf = (name: string, contentDir: string, withGit: boolean) => {
    const file = path.join(dir, `${name}.toml`);
    writeFileSync(
      file,
      stringify({
        data_dir: path.join(dir, `data-${name}`),
        site: { title: 'Bench Blog', base_url: 'https://bench.example' },
        blog: { listen: '127.0.0.1:0', content_dir: contentDir, ...(withGit ? { git: { enabled: true, remote, pull_seconds: 10 } } : {}) },
        admin: { users: [{ name: 'owner', password_hash: hash }], secure_cookies: false },
      }),
    );
    return file;
  };

  const contenders: Contender[] = [];
  try {
    for (const [name, contentDir, withGit] of [['without git', plainDir, false], ['with git', gitDir, true]] as const) {
      const postbox = await startPostbox({
        configFile: configOf(withGit ? 'git' : 'plain', contentDir, withGit),
        logFile: path.join(dir, `${withGit ? 'git' : 'plain'}.log`),
        services: ['blog'],
        placement: context.cores.server,
        cpuProfileDir: context.cpuProfileDir,
      });
      const base = postbox.addresses.blog as string;
      contenders.push({ name, postbox, base, ...(await signIn(base)), timings: [] });
    }
    const files = corpus.slugs.slice(0, SAVES).map((slug) => corpus.fileOf[slug] as string);
    const commitsBefore = Number(git(remote, ['rev-list', '--count', 'main']).trim());
    for (const [index, file] of files.entries()) {
      // Alternating which goes first, so that neither always meets a disk the other just warmed.
      const order = index % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) contender.timings.push(await timedSave(contender, file, index));
    }
    const commits = Number(git(remote, ['rev-list', '--count', 'main']).trim()) - commitsBefore;
    const [plain, withGit] = contenders as [Contender, Contender];
    const gitP95 = percentile(withGit.timings, 0.95);
    report.add({
      section: SECTION,
      name: `a save with git at ${POSTS.toLocaleString('en-US')} posts (commit and push), 95th percentile`,
      value: formatMs(gitP95),
      target: `< ${formatMs(P95_TARGET_MS)}`,
      verdict: gitP95 < P95_TARGET_MS && commits === SAVES ? 'PASS' : 'FAIL',
      detail: `${SAVES} saves: with git median ${formatMs(percentile(withGit.timings, 0.5))}, p95 ${formatMs(gitP95)}, max ${formatMs(Math.max(...withGit.timings))}; ${commits} commits reached the remote`,
    });
    const plainP95 = percentile(plain.timings, 0.95);
    report.add({
      section: SECTION,
      name: 'the same save without git, 95th percentile (what git adds)',
      value: formatMs(plainP95),
      target: '-',
      verdict: 'INFO',
      detail: `median ${formatMs(percentile(plain.timings, 0.5))}, max ${formatMs(Math.max(...plain.timings))}; git adds ${formatMs(percentile(withGit.timings, 0.5) - percentile(plain.timings, 0.5))} at the median`,
    });
  } finally {
    for (const contender of contenders) await contender.postbox.stop();
  }
}

/** Signs the owner in: the session cookie and the CSRF token of the pages. */
async function signIn(base: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await fetch(`${base}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'owner', password: PASSWORD }),
  });
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith('postbox_admin='))?.split(';', 1)[0];
  if (answer.status !== 303 || !cookie) throw new Error(`sign-in answered ${answer.status}`);
  const page = await (await fetch(`${base}/admin/posts`, { headers: { cookie } })).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF token on /admin/posts');
  return { cookie, csrf };
}

/** Opens the editor of `file`, adds a line to its text, and times the save's POST (it must answer 303). */
async function timedSave(contender: Contender, file: string, index: number): Promise<number> {
  const html = await (await fetch(`${contender.base}/admin/posts/edit?${new URLSearchParams({ file })}`, { headers: { cookie: contender.cookie } })).text();
  const form = new URLSearchParams({ csrf_token: contender.csrf, file });
  for (const [, name, value] of html.matchAll(/<input type="(?:hidden|text)"[^>]* name="([^"]+)" value="([^"]*)"/g)) {
    if (name !== 'csrf_token' && name !== 'file') form.set(name!, decode(value!));
  }
  if (/<input type="checkbox" id="field-draft" name="draft" checked/.test(html)) form.set('draft', 'on');
  const body = decode(/<textarea id="field-body" name="body"[^>]*>([^]*?)<\/textarea>/.exec(html)?.[1] ?? '');
  form.set('body', `${body.trimEnd()}\n\nEdited by the bench, save ${index + 1}.\n`);
  const started = performance.now();
  const answer = await fetch(`${contender.base}/admin/posts/save`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: contender.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const elapsed = performance.now() - started;
  if (answer.status !== 303 || !/notice=saved/.test(answer.headers.get('location') ?? '')) throw new Error(`${contender.name}: the save of ${file} answered ${answer.status} ${answer.headers.get('location') ?? ''}`);
  return elapsed;
}

function decode(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[name] ?? '');
}

/** The `share` percentile of `values` (nearest rank). */
function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN;
}
