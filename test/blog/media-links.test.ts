// Relative links to files beside a post become media URLs when the post is rendered (docs/blog.md "Images
// beside a post"); the feeds test checks the same through both feeds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';
import { resolveMediaLink } from '../../src/blog/content/media-links.js';

describe('resolveMediaLink: which URLs name a file beside the post', () => {
  const base = 'https://blog.example.com/api/blog/media/trip/';
  const cases: Array<[string, string | null]> = [
    ['photo.png', `${base}photo.png`],
    ['./photo.png', `${base}photo.png`],
    ['my%20photo.png', `${base}my%20photo.png`],
    ['notes.pdf#page=2', `${base}notes.pdf#page=2`],
    ['photo.png?v=2', `${base}photo.png?v=2`],
    ['https://example.org/photo.png', null],
    ['//cdn.example.org/photo.png', null],
    ['/images/photo.png', null],
    ['#top', null],
    ['?page=2', null],
    ['mailto:ada@example.org', null],
    ['tel:+331234', null],
    ['../other/photo.png', null],
    ['sub/photo.png', null],
    ['.hidden.png', null],
    ['..', null],
    ['%2e%2e%2fsecret', null],
    ['', null],
  ];
  for (const [url, expected] of cases) it(JSON.stringify(url), () => assert.equal(resolveMediaLink(url, base), expected));

  it('markdown-it rewrites image src and link href, in inline and reference form; raw HTML is not rewritten', () => {
    const html = createMarkdownTools().render('![A](photo.png "T") [doc](notes.pdf) [web](https://example.org) [ref][r] <img src="raw.png">\n\n[r]: ./photo.gif\n', base);
    assert.equal(
      html,
      `<p><img src="${base}photo.png" alt="A" title="T" /> <a href="${base}notes.pdf">doc</a> <a href="https://example.org">web</a> <a href="${base}photo.gif">ref</a> <img src="raw.png" /></p>\n`,
    );
    assert.equal(createMarkdownTools().render('![A](photo.png)'), '<p><img src="photo.png" alt="A" /></p>\n', 'no base: left alone');
  });
});
