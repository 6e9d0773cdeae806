// The client's types (src/client/openapi/) are those openapi-typescript makes of the documents the running server
// serves, regenerated here and compared: a route or a body changed without `npm run build` fails. And a small program
// that uses postbox/client type-checks under strict tsc, while the same program with a wrong field does not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error: a build script in plain JavaScript, without declarations.
import { CLIENT_TYPE_FILES, CLIENT_TYPES_DIR, clientTypesOf, fetchDocuments, serveReference } from '../../scripts/client-types.mjs';
import { assertCliBuilt, REPO_ROOT } from '../support/postbox-process.js';
import { withTempDir } from '../support/temp-dir.js';

describe('the typed client\'s types', () => {
  it('are what openapi-typescript makes of the documents the running server serves', { timeout: 60_000 }, async () => {
    assertCliBuilt();
    const server = await serveReference();
    try {
      const generated = (await clientTypesOf(await fetchDocuments(server.addresses))) as Record<'forms' | 'blog', string>;
      for (const listener of ['forms', 'blog'] as const) {
        const file = path.join(CLIENT_TYPES_DIR as string, (CLIENT_TYPE_FILES as Record<string, string>)[listener]!);
        assert.equal(await readFile(file, 'utf8'), generated[listener], `${file} is stale: run npm run build`);
      }
    } finally {
      await server.stop();
    }
  });
});

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const PROGRAM = (wrong: string) => `import { createClient, PostboxError, type Post } from 'postbox/client';

const client = createClient({ forms: 'https://forms.example.com', blog: 'https://blog.example.com' });
export async function titles(): Promise<string[]> {
  const page = await client.listPosts({ tag: 'news', page: 2 });
  const post: Post = await client.getPost(page.posts[0]?.slug ?? 'hello', { lang: 'fr' });
  await client.postComment(post.slug, { name: 'Ada', text: 'Hello'${wrong} });
  await client.submit('/contact', { name: 'Ada', email: 'ada@example.com', message: 'Hello there' });
  await client.signup('/newsletter', { email: 'ada@example.com' });
  const thread = await client.listComments(post.slug);
  return [post.html, ...thread.comments.map((comment) => comment.author.name)];
}
export function codeOf(error: unknown): string | null {
  return error instanceof PostboxError ? error.error : null;
}
`;

/** strict tsc on `sources` by file name, in a folder where `postbox` resolves to this package, as in a site that installed it. */
async function typeCheck(sources: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return withTempDir('client-program', async (dir) => {
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(REPO_ROOT, path.join(dir, 'node_modules', 'postbox'), 'dir');
    await symlink(path.join(REPO_ROOT, 'node_modules', '@types'), path.join(dir, 'node_modules', '@types'), 'dir');
    await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
    for (const [name, source] of Object.entries(sources)) await writeFile(path.join(dir, name), source);
    const args = [TSC, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', ...Object.keys(sources)];
    const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  });
}

describe('a program using postbox/client under strict tsc', () => {
  it('compiles as written, and not with a field the comment body does not have', { timeout: 60_000 }, async () => {
    assertCliBuilt();
    // One run of tsc for both: its errors name the file they are in.
    const { status, output } = await typeCheck({ 'site.ts': PROGRAM(''), 'wrong.ts': PROGRAM(", colour: 'blue'") });
    assert.notEqual(status, 0);
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    assert.equal(errors.length, 1, output);
    assert.match(errors[0]!, /^wrong\.ts\(\d+,\d+\): error TS2353: Object literal may only specify known properties, and 'colour' does not exist/);
  });
});
