// A post version's digest (docs/blog.md "What the API answers"): another content, another digest; the same content
// in another file, the same digest. And the list answers carry each version's and its translations'.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLanguageNames } from '../../src/blog/content/language.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { parsePostFile } from '../../src/blog/content/parse-post.js';
import { startBlog, type RunningBlog } from './fixture.js';

const context = { markdown: createMarkdownTools(), languageNames: createLanguageNames(), defaultLanguage: 'en', baseUrl: 'https://blog.example.com' };
const POST = '+++\ntitle = "Hello"\ndate = 2024-03-01\ntags = ["news"]\n+++\n\nThe body.\n';

function digestOf(text: string, file = 'hello.md'): string {
  const parsed = parsePostFile(file, text, context);
  assert.ok(parsed.ok);
  return parsed.post.digest;
}

describe('the digest of a version', () => {
  it('changes with the body and with each front matter field, not with the file\'s name or folder', () => {
    const digest = digestOf(POST);
    assert.match(digest, /^[\w-]{22}$/);
    assert.equal(digestOf(POST), digest);
    assert.equal(digestOf(POST, 'hello/index.md'), digest);
    const edits = [
      POST.replace('The body.', 'The body!'),
      POST.replace('"Hello"', '"Hello again"'),
      POST.replace('2024-03-01', '2024-03-02'),
      POST.replace('["news"]', '["news", "web"]'),
      POST.replace('+++\n\n', 'excerpt = "Short"\n+++\n\n'),
      POST.replace('+++\n\n', 'updated = 2024-04-01\n+++\n\n'),
      POST.replace('+++\n\n', 'author = "Ada"\n+++\n\n'),
    ];
    const digests = edits.map((text) => digestOf(text));
    assert.equal(new Set([digest, ...digests]).size, edits.length + 1);
  });
});

describe('digests in the list answers', () => {
  let blog: RunningBlog;
  before(async () => {
    blog = await startBlog();
  });
  after(() => blog.close());

  it('each summary carries its version\'s digest, the detail\'s, and its translations\' by language', async () => {
    const { json } = await blog.request('/api/blog/posts?limit=100');
    for (const summary of json.posts as Array<{ url: string; digest: string; translations: Record<string, string>; translation_digests: Record<string, string> }>) {
      assert.equal((await blog.request(summary.url)).json.digest, summary.digest);
      assert.deepEqual(Object.keys(summary.translation_digests).sort(), Object.keys(summary.translations).sort());
      for (const [lang, url] of Object.entries(summary.translations)) assert.equal((await blog.request(url)).json.digest, summary.translation_digests[lang], `${summary.url} ${lang}`);
    }
    assert.ok((json.posts as Array<{ translations: object }>).some((summary) => Object.keys(summary.translations).length > 0), 'the fixture has translations');
  });
});
