import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutAtWord, readingTime, resolveExcerpt, EXCERPT_MAX_CHARS } from '../../src/blog/content/excerpt.js';
import { createMarkdownTools } from '../../src/blog/content/markdown.js';

const markdown = createMarkdownTools();
const excerptOf = (body: string, frontMatter?: string) => resolveExcerpt(markdown, frontMatter, body, markdown.outline(body).firstParagraph);
const codePoints = (text: string) => Array.from(text).length;

describe('excerpt (docs/blog.md): front matter, else before <!--more-->, else first paragraph; plain text', () => {
  const cases: Array<[string, string, string | undefined, string]> = [
    ['front matter wins', 'First paragraph.\n\n<!--more-->\n', 'From **front** matter', 'From front matter'],
    ['text before <!--more-->', '# Title\n\nOne *two*\nthree.\n\nFour [five](https://x.example).\n\n<!-- more -->\n\nSix.', undefined, 'Title One two three. Four five.'],
    ['first paragraph', '# Heading\n\n```js\ncode();\n```\n\nThe `first` paragraph, with ![an image](a.png).\n\nSecond.', undefined, 'The first paragraph, with an image.'],
    ['first paragraph inside a list', '- item **one**\n- item two\n\nLater.', undefined, 'item one'],
    ['entities and raw HTML', 'Fish &amp; chips <span class="x">today</span>.', undefined, 'Fish & chips today.'],
    ['empty front-matter excerpt falls through', 'Body text.', '   ', 'Body text.'],
    ['no text at all', '```\nonly code\n```\n', undefined, ''],
  ];
  for (const [name, body, frontMatter, expected] of cases) {
    it(name, () => assert.equal(excerptOf(body, frontMatter), expected));
  }

  it('cuts a long first paragraph at a word, at most 280 characters with the ellipsis', () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`);
    const excerpt = excerptOf(words.join(' '));
    assert.ok(codePoints(excerpt) <= EXCERPT_MAX_CHARS, `${codePoints(excerpt)} characters`);
    assert.ok(excerpt.endsWith('…'));
    const kept = excerpt.slice(0, -1).split(' ');
    assert.deepEqual(kept, words.slice(0, kept.length), 'whole words only, in order');
    assert.ok(codePoints(`${excerpt.slice(0, -1)} ${words[kept.length]}…`) > EXCERPT_MAX_CHARS, 'the next word would not have fit');
  });
});

describe('cutAtWord', () => {
  it('collapses white space and keeps a text that fits', () => {
    assert.equal(cutAtWord('  a\n\tb   c ', 280), 'a b c');
    assert.equal(cutAtWord('x'.repeat(280), 280), 'x'.repeat(280));
  });
  it('counts code points, not UTF-16 units: 280 emoji fit', () => {
    const emoji = '😀'.repeat(280);
    assert.equal(cutAtWord(emoji, 280), emoji);
    const cut = cutAtWord(`${'😀'.repeat(200)} ${'😀'.repeat(100)}`, 280);
    assert.equal(cut, `${'😀'.repeat(200)}…`);
  });
  it('cuts one overlong word hard', () => {
    const cut = cutAtWord('y'.repeat(1000), 280);
    assert.equal(cut, `${'y'.repeat(279)}…`);
  });
  it('keeps a word that ends exactly at the limit and drops trailing punctuation before the ellipsis', () => {
    assert.equal(cutAtWord('aaa bbb, ccc', 9), 'aaa bbb…');
    assert.equal(cutAtWord('aaaa bbb ccc', 9), 'aaaa bbb…');
  });
});

describe('reading_time: ceil(words / 200), at least 1, code blocks not counted', () => {
  const words = (count: number) => Array.from({ length: count }, () => 'word').join(' ');
  const cases: Array<[string, string, number]> = [
    ['empty', '', 1],
    ['200 words', words(200), 1],
    ['201 words', words(201), 2],
    ['400 words over two paragraphs', `${words(200)}\n\n${words(200)}`, 2],
    ['fenced code is not counted', `${words(150)}\n\n\`\`\`\n${words(1000)}\n\`\`\`\n`, 1],
    ['indented code is not counted', `${words(150)}\n\n    ${words(1000)}\n`, 1],
    ['inline code and link text are words', `${words(199)} \`code\` [two words](https://example.com)`, 2],
    ['raw HTML blocks count their text, not their tags', `<div class="a b c d">\n${words(201)}\n</div>`, 2],
  ];
  for (const [name, body, minutes] of cases) {
    it(`${name}: ${minutes}`, () => assert.equal(readingTime(markdown.outline(body).words), minutes));
  }
});

describe('render: markdown-it with raw HTML allowed (the author is trusted)', () => {
  it('passes raw HTML through and renders Markdown', () => {
    assert.equal(markdown.render('Hi <kbd>Ctrl</kbd> *there*'), '<p>Hi <kbd>Ctrl</kbd> <em>there</em></p>\n');
  });
});
