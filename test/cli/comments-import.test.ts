// `postbox comments import` and `export` (docs/comments.md "Import and export") beside a running blog service:
// small hand-written exports of Disqus, WordPress and remark42 with a few hundred generated comments each are
// matched to the posts by address (scheme and trailing slash aside), keep their threads and times, skip spam and
// deleted items with a count, show in the running service within a second, and a second run adds nothing.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Backend } from '../../src/adapters/backend.js';
import { openBackend } from '../../src/app/open-backend.js';
import { parseCommentsCommand, runCommentsCommand, type CommentsCommand } from '../../src/cli/comments.js';
import type { Config } from '../../src/config/config.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { loadTestConfig } from '../support/config.js';
import { SITE_ORIGIN, startCommentsApp, type CommentsApp } from '../comments/comments-app.js';

/** How many comments each generated export holds (besides the skipped ones). */
const COUNT = 240;

interface Thread {
  comments: Array<{ id: string; parent: string | null; author: { name: string; url: string | null }; html: string; created_at: string }>;
  total: number;
}

/** The n-th generated comment: on hello or other, every third one a reply to the one before it on the same post. */
function generated(n: number): { id: string; parent: string | null; post: 'hello' | 'other'; time: Date; name: string } {
  const post = n % 2 === 0 ? 'hello' : 'other';
  return { id: `c${n}`, parent: n >= 2 && n % 3 === 0 ? `c${n - 2}` : null, post, time: new Date(Date.UTC(2020, 0, 1) + n * 60_000), name: `Person ${n}` };
}

/** The page address of a post as an old site wrote it: http or https, with or without a trailing slash. */
const pageOf = (post: string, n: number) => `${n % 4 < 2 ? 'http' : 'https'}://blog.example.com/blog/${post}${n % 5 === 0 ? '/' : ''}`;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function disqusExport(): string {
  const threads = ['hello', 'other'].map((post, index) => `<thread dsq:id="t${index}"><link>${pageOf(post, index)}</link><title>${post}</title></thread>`);
  threads.push('<thread dsq:id="t9"><link>https://blog.example.com/blog/gone/</link></thread>');
  const posts = Array.from({ length: COUNT }, (_, n) => {
    const c = generated(n);
    return `<post dsq:id="${c.id}"><id/><message><![CDATA[<p>Comment <b>${n}</b></p>]]></message><createdAt>${c.time.toISOString().replace('.000', '')}</createdAt><isDeleted>false</isDeleted><isSpam>false</isSpam><author><name>${c.name}</name><email>p${n}@example.org</email></author><thread dsq:id="t${c.post === 'hello' ? 0 : 1}"/>${c.parent ? `<parent dsq:id="${c.parent}"/>` : ''}</post>`;
  });
  posts.push('<post dsq:id="s1"><message>Buy now</message><createdAt>2020-02-01T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>true</isSpam><author><name>Bot</name></author><thread dsq:id="t0"/></post>');
  posts.push('<post dsq:id="d1"><message>Oops</message><createdAt>2020-02-01T00:00:00Z</createdAt><isDeleted>true</isDeleted><isSpam>false</isSpam><author><name>Ann</name></author><thread dsq:id="t0"/></post>');
  posts.push('<post dsq:id="g1"><message>Elsewhere</message><createdAt>2020-02-01T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>false</isSpam><author><name>Ann</name></author><thread dsq:id="t9"/></post>');
  return `<?xml version="1.0" encoding="utf-8"?>
<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">
${threads.join('\n')}
${posts.join('\n')}
</disqus>`;
}

function wordpressExport(): string {
  const items = ['hello', 'other'].map((post, index) => {
    const comments = Array.from({ length: COUNT }, (_, n) => generated(n))
      .filter((c) => c.post === post)
      .map((c) => {
        const gmt = c.time.toISOString().slice(0, 19).replace('T', ' ');
        return `<wp:comment><wp:comment_id>${c.id.slice(1)}</wp:comment_id><wp:comment_author><![CDATA[${c.name}]]></wp:comment_author><wp:comment_author_email>x@example.org</wp:comment_author_email><wp:comment_author_url>https://p.example/${c.id}</wp:comment_author_url><wp:comment_date>2001-01-01 01:00:00</wp:comment_date><wp:comment_date_gmt>${gmt}</wp:comment_date_gmt><wp:comment_content><![CDATA[Comment ${escapeXml(c.id)}\n\nSecond paragraph]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_type>comment</wp:comment_type><wp:comment_parent>${c.parent ? c.parent.slice(1) : 0}</wp:comment_parent></wp:comment>`;
      });
    if (index === 0) {
      comments.push('<wp:comment><wp:comment_id>9001</wp:comment_id><wp:comment_author>Bot</wp:comment_author><wp:comment_date_gmt>2020-02-01 00:00:00</wp:comment_date_gmt><wp:comment_content>spam</wp:comment_content><wp:comment_approved>spam</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>');
      comments.push('<wp:comment><wp:comment_id>9002</wp:comment_id><wp:comment_author>Ann</wp:comment_author><wp:comment_date_gmt>2020-02-01 00:00:00</wp:comment_date_gmt><wp:comment_content>gone</wp:comment_content><wp:comment_approved>trash</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>');
      comments.push('<wp:comment><wp:comment_id>9003</wp:comment_id><wp:comment_author>Site</wp:comment_author><wp:comment_date_gmt>2020-02-01 00:00:00</wp:comment_date_gmt><wp:comment_content>ping</wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_type>pingback</wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>');
    }
    return `<item><title>${post}</title><link>${pageOf(post, index + 2)}</link><wp:post_type>post</wp:post_type>${comments.join('\n')}</item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>Old blog</title>
${items.join('\n')}
</channel></rss>`;
}

function remark42Export(): string {
  const lines = [JSON.stringify({ version: 1, users: [], posts: [] })];
  for (let n = 0; n < COUNT; n++) {
    const c = generated(n);
    lines.push(JSON.stringify({ id: c.id, pid: c.parent ?? '', text: `<p>Comment ${n}</p>`, user: { name: c.name, id: `u${n}` }, locator: { site: 'blog', url: pageOf(c.post, n) }, time: c.time.toISOString(), delete: false }));
  }
  lines.push(JSON.stringify({ id: 'gone', pid: '', text: '', user: { name: 'Ann' }, locator: { site: 'blog', url: pageOf('hello', 1) }, time: '2020-02-01T00:00:00Z', delete: true }));
  return `${lines.join('\n')}\n`;
}

describe('postbox comments import and export', () => {
  const apps: CommentsApp[] = [];
  const backends: Backend[] = [];
  after(async () => {
    for (const backend of backends) await backend.close();
    for (const app of apps) await app.close();
  });

  /** A running service, and a second backend over its data_dir, as the command opens it. */
  async function start(): Promise<{ app: CommentsApp; config: Config; backend: Backend }> {
    const app = await startCommentsApp();
    apps.push(app);
    const config = loadTestConfig(
      { data_dir: 'data', site: { title: 'Blog', base_url: SITE_ORIGIN }, blog: { listen: '127.0.0.1:0', content_dir: 'posts', comments: { enabled: true, allowed_origins: [SITE_ORIGIN] } } },
      app.dir,
    );
    const backend = openBackend(config, createSilentLogger());
    backends.push(backend);
    return { app, config, backend };
  }

  async function run(command: CommentsCommand, config: Config, backend: Backend): Promise<{ code: number; out: string; error: string }> {
    let out = '';
    let error = '';
    const code = await runCommentsCommand(command, config, backend, { out: (text) => void (out += text), error: (text) => void (error += text) });
    return { code, out, error };
  }

  it('says so when comments are off in the configuration, and keeps what it imported', { timeout: 60_000 }, async () => {
    const { app, backend } = await start();
    const off = loadTestConfig({ data_dir: 'data', site: { title: 'Blog', base_url: SITE_ORIGIN }, blog: { listen: '127.0.0.1:0', content_dir: 'posts' } }, app.dir);
    const file = path.join(app.dir, 'export-off');
    await writeFile(file, disqusExport());
    const command = parseCommentsCommand(['import', file], { from: 'disqus' });
    assert.ok(!('problem' in command));
    const { code, out, error } = await run(command, off, backend);
    assert.equal(code, 0);
    assert.match(out, /^imported [1-9]/);
    assert.match(error, /\[blog\.comments\] is not enabled/);
  });

  const thread = async (app: CommentsApp, slug: string) => (await app.service.inject({ method: 'GET', url: `/api/blog/posts/${slug}/comments` })).json() as Thread;

  for (const [format, make, skipped] of [
    ['disqus', disqusExport, 'skipped 1 spam, 1 deleted, 0 not approved, 1 on no published post'],
    ['wordpress', wordpressExport, 'skipped 1 spam, 1 deleted, 0 not approved, 0 on no published post'],
    ['remark42', remark42Export, 'skipped 0 spam, 1 deleted, 0 not approved, 0 on no published post'],
  ] as const) {
    it(`imports a ${format} export into the running service, threads and times kept, and nothing twice`, { timeout: 60_000 }, async () => {
      const { app, config, backend } = await start();
      assert.equal((await thread(app, 'hello')).total, 0, 'the service has read the empty thread before the import');
      const file = path.join(app.dir, `export-${format}`);
      await writeFile(file, make());
      const command = parseCommentsCommand(['import', file], { from: format });
      assert.ok(!('problem' in command));

      const first = await run(command, config, backend);
      assert.equal(first.error, '');
      assert.equal(first.code, 0);
      assert.equal(first.out, `imported ${COUNT}, already there 0, ${skipped}\n`);
      // The service looks at a file's stamp at most once a second.
      app.clock.advance(1_000);

      const hello = await thread(app, 'hello');
      const other = await thread(app, 'other');
      assert.equal(hello.total + other.total, COUNT, 'the running service shows them');
      assert.equal(hello.total, COUNT / 2);
      const byName = new Map([...hello.comments, ...other.comments].map((comment) => [comment.author.name, comment]));
      for (let n = 0; n < COUNT; n++) {
        const expected = generated(n);
        const comment = byName.get(expected.name)!;
        assert.equal(comment.created_at, expected.time.toISOString(), `the time of ${n}`);
        assert.equal(comment.parent, expected.parent ? byName.get(generated(Number(expected.parent.slice(1))).name)!.id : null, `the parent of ${n}`);
      }
      if (format === 'disqus') assert.equal(byName.get('Person 4')!.html, '<p>Comment 4</p>', 'only what a comment may hold');
      if (format === 'wordpress') {
        assert.equal(byName.get('Person 4')!.html, '<p>Comment c4</p>\n<p>Second paragraph</p>');
        assert.equal(byName.get('Person 4')!.author.url, 'https://p.example/c4');
      }

      const second = await run(command, config, backend);
      assert.equal(second.out, `imported 0, already there ${COUNT}, ${skipped}\n`);
      assert.equal((await thread(app, 'hello')).total + (await thread(app, 'other')).total, COUNT);

      const exported = await run({ action: 'export' }, config, backend);
      const all = (JSON.parse(exported.out) as { comments: Array<{ id: string; status: string }> }).comments;
      assert.equal(all.length, COUNT);
      assert.ok(all.every((comment) => comment.status === 'published'));
    });
  }

  it('reads its command line', () => {
    assert.deepEqual(parseCommentsCommand(['import', 'f.xml'], { from: 'disqus' }), { action: 'import', from: 'disqus', file: 'f.xml' });
    assert.deepEqual(parseCommentsCommand(['export'], { from: undefined }), { action: 'export' });
    assert.ok('problem' in parseCommentsCommand(['import', 'f.xml'], { from: 'blogger' }));
    assert.ok('problem' in parseCommentsCommand(['import'], { from: 'disqus' }));
    assert.ok('problem' in parseCommentsCommand(['export'], { from: 'disqus' }));
  });
});
