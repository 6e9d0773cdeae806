// A post's HTML is sanitised unless its front matter says `raw_html = true` (docs/blog.md "Raw HTML"): through
// the Markdown tools, and through the blog API's detail and feed, where a script would run on the site's origin.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { createTempDir } from '../support/temp-dir.js';
import { startBlog } from './fixture.js';

const HOSTILE = [
  'Hello <b>there</b>.',
  '',
  '<script>fetch("/admin/users")</script>',
  '<img src="pic.png" alt="a pic" onerror="alert(1)">',
  '<a href="javascript:alert(1)">click</a> <a href="https://example.org/" onclick="x()">fine</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe src="https://www.youtube-nocookie.com/embed/x" width="560"></iframe>',
  '<svg><script>alert(1)</script></svg><form action="/x"><input name="a"></form><style>body{}</style>',
  '',
  '| a | b |',
  '|--:|:-:|',
  '| 1 | 2 |',
].join('\n');

describe('raw HTML in posts', () => {
  it('is sanitised by default: no script, event handler, javascript: URL, form, style or iframe', () => {
    const html = createMarkdownTools().render(HOSTILE, null);
    assert.match(html, /Hello <b>there<\/b>\./);
    assert.match(html, /<img src="pic.png" alt="a pic" \/>/);
    assert.match(html, /<a href="https:\/\/example.org\/">fine<\/a>/);
    assert.match(html, /<th style="text-align:right">a<\/th>/, "markdown-it's table alignment is kept");
    for (const banned of [/<script/i, /onerror/i, /onclick/i, /javascript:/i, /<iframe/i, /<form/i, /<input/i, /<style/i, /<svg/i]) {
      assert.doesNotMatch(html, banned);
    }
  });

  it('keeps an iframe only from a host of allow_iframes_from, over https', () => {
    const html = createMarkdownTools({ iframeHosts: ['www.youtube-nocookie.com'] }).render(HOSTILE, null);
    assert.match(html, /<iframe src="https:\/\/www.youtube-nocookie.com\/embed\/x" width="560"><\/iframe>/);
    assert.doesNotMatch(html, /evil\.example/);
    assert.doesNotMatch(createMarkdownTools({ iframeHosts: ['www.youtube-nocookie.com'] }).render('<iframe src="http://www.youtube-nocookie.com/embed/x"></iframe>', null), /src=/);
    assert.doesNotMatch(html, /<script/);
  });

  it('is written through as it is for a post marked raw_html', () => {
    const html = createMarkdownTools().render(HOSTILE, null, true);
    assert.match(html, /<script>fetch\("\/admin\/users"\)<\/script>/);
    assert.match(html, /onerror="alert\(1\)"/);
  });

  it('reaches the API and the feeds sanitised unless the front matter marks the post', async () => {
    const { dir, remove } = await createTempDir('raw-html');
    try {
      const post = (title: string, mark: string) => `+++\ntitle = "${title}"\ndate = 2024-05-01\n${mark}+++\nText <script>alert("${title}")</script><span onmouseover="x()">hover</span>\n`;
      await writeFile(path.join(dir, 'plain.md'), post('plain', ''));
      await writeFile(path.join(dir, 'marked.md'), post('marked', 'raw_html = true\n'));
      const blog = await startBlog(dir);
      try {
        const plain = await blog.request('/api/blog/posts/plain');
        assert.equal(plain.status, 200);
        assert.equal(plain.json.html, '<p>Text <span>hover</span></p>\n');
        const marked = await blog.request('/api/blog/posts/marked');
        assert.match(marked.json.html, /<script>alert\(&quot;marked&quot;\)<\/script><span onmouseover="x\(\)">/);
        const feed = await blog.request('/api/blog/feed.json');
        const items = new Map<string, string>(feed.json.items.map((item: { title: string; content_html: string }) => [item.title, item.content_html]));
        assert.doesNotMatch(items.get('plain') ?? '', /script|onmouseover/);
        assert.match(items.get('marked') ?? '', /<script>/);
      } finally {
        await blog.close();
      }
    } finally {
      await remove();
    }
  });
});
