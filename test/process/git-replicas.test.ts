// Two real `postbox serve` replicas with [blog.git], each with its own clone of one bare remote (docs/admin.md
// "Posts in git"; examples/cluster/): each starts from an empty content_dir and checks the remote out itself. A save
// through /admin is one commit by the signed-in person, pushed; the other replica serves it (files state: it fetches
// every pull_seconds); a person's own `git push` is served by both; History lists the authors and Restore
// makes a new commit served everywhere; the same line saved on both at once leaves one winner in the remote and the
// 409 page with the other's text (kept as their draft too); different paragraphs saved at once both reach the remote.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testHash, PASSWORD } from '../admin/admin-app.js';
import { writeConfigFile } from '../support/config.js';
import { cloneRemote, commitsOf, createBareRemote, fileAt, pushFromClone } from '../support/git-repos.js';
import { startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const post = (title: string, paragraphs: string[]) => `+++\ntitle = "${title}"\ndate = 2024-05-01\n+++\n\n${paragraphs.join('\n\n')}\n`;
const PARAGRAPHS = ['The first paragraph.', 'The second paragraph.', 'The third paragraph.'];

/** A replica as a browser signed in as jane sees it. */
interface Replica {
  serve: ServeProcess;
  base: string;
  cookie: string;
  csrf: string;
}

describe('two replicas, each with its own clone of one remote', () => {
  let temp: { dir: string; remove: () => Promise<void> };
  let remote: string;
  let a: Replica;
  let b: Replica;

  before(async () => {
    temp = await createTempDir('git-replicas');
    remote = await createBareRemote(temp.dir, { 'hello.md': post('Hello', PARAGRAPHS), 'notes.md': post('Notes', PARAGRAPHS), 'spare.md': post('Spare', PARAGRAPHS) });
    const hash = await testHash();
    const start = async (name: string): Promise<Replica> => {
      const contentDir = path.join(temp.dir, `posts-${name}`);
      await mkdir(contentDir);
      const configFile = await writeConfigFile(
        temp.dir,
        {
          data_dir: path.join(temp.dir, `data-${name}`),
          site: { title: 'Site', base_url: 'http://127.0.0.1' },
          blog: { listen: '127.0.0.1:0', content_dir: contentDir, git: { enabled: true, remote, pull_seconds: 0.2 } },
          admin: { users: [{ name: 'jane', password_hash: hash }], secure_cookies: false },
        },
        `config-${name}.toml`,
      );
      const serve = await startPostboxServe(configFile, ['blog']);
      const base = serve.addresses.blog!;
      const signedIn = await fetch(`${base}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ name: 'jane', password: PASSWORD }),
      });
      const cookie = signedIn.headers.getSetCookie().find((value) => value.startsWith('postbox_admin='))!.split(';', 1)[0]!;
      const page = await (await fetch(`${base}/admin/posts`, { headers: { cookie } })).text();
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
      return { serve, base, cookie, csrf };
    };
    [a, b] = await Promise.all([start('a'), start('b')]);
  });
  after(async () => {
    await Promise.all([a?.serve.stop(), b?.serve.stop()]);
    await temp?.remove();
  });

  const get = (replica: Replica, url: string) => fetch(`${replica.base}${url}`, { redirect: 'manual', headers: { cookie: replica.cookie } });
  const post_ = (replica: Replica, url: string, fields: Record<string, string>) =>
    fetch(`${replica.base}${url}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: replica.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: replica.csrf, ...fields }),
    });
  /** The editor's version and base text of `file` on `replica`, as a browser would send them back. */
  const open = async (replica: Replica, file: string) => {
    const html = await (await get(replica, `/admin/posts/edit?file=${file}`)).text();
    const field = (name: string) => decode(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!);
    return { version: field('version'), base_text: field('base_text') };
  };
  const save = async (replica: Replica, file: string, title: string, paragraphs: string[], opened?: { version: string; base_text: string }) =>
    post_(replica, '/admin/posts/save', { file, ...(opened ?? (await open(replica, file))), title, date: '2024-05-01', body: `${paragraphs.join('\n\n')}\n` });
  /** Waits (bounded, for a busy machine) until `replica`'s blog API serves `slug` with `text` in its Markdown. */
  const served = (replica: Replica, slug: string, text: string, timeoutMs = 30_000) =>
    waitFor(
      `${slug} with "${text}" on ${replica.base}`,
      async () => {
        const answer = await fetch(`${replica.base}/api/blog/posts/${slug}`);
        return answer.ok && ((await answer.json()) as { body: string }).body.includes(text) ? true : undefined;
      },
      timeoutMs,
    );

  it('commits a save as the signed-in person, pushes it, and the other replica serves it', async () => {
    const saved = await save(a, 'hello.md', 'Hello', ['The first paragraph, saved on a.', PARAGRAPHS[1]!, PARAGRAPHS[2]!]);
    assert.equal(saved.status, 303);
    const [commit] = await commitsOf(remote, 1);
    assert.deepEqual([commit!.author, commit!.authorEmail, commit!.committer, commit!.message, commit!.files], ['jane', 'jane@users.postbox.invalid', 'Postbox', 'Edit hello.md', ['hello.md']]);
    await served(b, 'hello', 'saved on a.');
  });

  it('serves a person\u2019s own git push on both replicas', async () => {
    const laptop = await cloneRemote(remote, path.join(temp.dir, 'laptop'));
    await pushFromClone(laptop, { 'trip.md': post('Trip', ['Written on a laptop and pushed.']) }, 'Add a trip');
    await Promise.all([served(a, 'trip', 'pushed.'), served(b, 'trip', 'pushed.')]);
  });

  it('lists the authors in History, and Restore makes a new commit served everywhere', async () => {
    const history = await (await get(b, '/admin/posts/history?file=hello.md')).text();
    const authors = [...history.matchAll(/<\/time><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((match) => `${match[1]}: ${match[2]}`);
    assert.deepEqual(authors, ['jane: Edit hello.md', 'Olive Owner: Seed the posts']);
    const seed = /href="(\/admin\/posts\/history\/version\?file=hello\.md&amp;id=([0-9a-f]{40}))"/g;
    const links = [...history.matchAll(seed)];
    const oldest = links.at(-1)!;
    const version = await (await get(b, oldest[1]!.replace(/&amp;/g, '&'))).text();
    const current = decode(/name="version" value="([^"]*)"/.exec(version)![1]!);
    const restored = await post_(b, '/admin/posts/history/restore', { file: 'hello.md', id: oldest[2]!, version: current });
    assert.equal(restored.status, 303);
    const [commit] = await commitsOf(remote, 1);
    assert.deepEqual([commit!.author, commit!.message], ['jane', `Restore hello.md to ${oldest[2]!.slice(0, 7)}`]);
    assert.equal(await fileAt(remote, 'hello.md'), post('Hello', PARAGRAPHS));
    await Promise.all([served(a, 'hello', 'The first paragraph.\n'), served(b, 'hello', 'The first paragraph.\n')]);
  });

  it('keeps one of two saves of the same line made at once, and answers the other with the 409 page that holds its text', async () => {
    await Promise.all([served(a, 'notes', 'The second paragraph.'), served(b, 'notes', 'The second paragraph.')]);
    const [openedA, openedB] = await Promise.all([open(a, 'notes.md'), open(b, 'notes.md')]);
    const answers = await Promise.all([
      save(a, 'notes.md', 'Notes', [PARAGRAPHS[0]!, 'The second paragraph, as a wrote it.', PARAGRAPHS[2]!], openedA),
      save(b, 'notes.md', 'Notes', [PARAGRAPHS[0]!, 'The second paragraph, as b wrote it.', PARAGRAPHS[2]!], openedB),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [303, 409]);
    const loser = answers.findIndex((answer) => answer.status === 409);
    const [winnerName, loserName] = loser === 0 ? ['b', 'a'] : ['a', 'b'];
    const page = await answers[loser]!.text();
    assert.match(page, /The post changed meanwhile/);
    assert.match(page, new RegExp(`<textarea id="conflict-body" name="body" rows="16">[^<]*The second paragraph, as ${loserName} wrote it\\.`));
    assert.match(await fileAt(remote, 'notes.md') ?? '', new RegExp(`as ${winnerName} wrote it`));
    assert.doesNotMatch(await fileAt(remote, 'notes.md') ?? '', new RegExp(`as ${loserName} wrote it`));
    // The losing replica serves the winner's text, and keeps the loser's as jane's unsaved draft there.
    const loserReplica = loser === 0 ? a : b;
    await served(loserReplica, 'notes', `as ${winnerName} wrote it`);
    const editor = await (await get(loserReplica, '/admin/posts/edit?file=notes.md')).text();
    assert.match(editor, /Restore unsaved changes from/);
  });

  it('takes both of two saves of different paragraphs made at once into the remote', async () => {
    await Promise.all([served(a, 'spare', 'The third paragraph.'), served(b, 'spare', 'The third paragraph.')]);
    const [openedA, openedB] = await Promise.all([open(a, 'spare.md'), open(b, 'spare.md')]);
    const answers = await Promise.all([
      save(a, 'spare.md', 'Spare', ['The first paragraph, by a.', PARAGRAPHS[1]!, PARAGRAPHS[2]!], openedA),
      save(b, 'spare.md', 'Spare', [PARAGRAPHS[0]!, PARAGRAPHS[1]!, 'The third paragraph, by b.'], openedB),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status), [303, 303]);
    assert.equal(await fileAt(remote, 'spare.md'), post('Spare', ['The first paragraph, by a.', PARAGRAPHS[1]!, 'The third paragraph, by b.']));
    await Promise.all([served(a, 'spare', 'by b.'), served(b, 'spare', 'by a.')]);
  });
});

function decode(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39|#x27);/g, (_whole, name: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'", '#x27': "'" })[name] ?? '');
}
