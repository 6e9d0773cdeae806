import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSlug, parsePostFileName } from '../../src/blog/content/file-name.js';
import { canonicalLanguage, createLanguageNames } from '../../src/blog/content/language.js';

const names = createLanguageNames();

describe('parsePostFileName (docs/blog.md "Where posts live")', () => {
  const cases: Array<[string, { slug: string; lang: string | null } | null]> = [
    ['hello.md', { slug: 'hello', lang: null }],
    ['hello.fr.md', { slug: 'hello', lang: 'fr' }],
    ['hello.pt-br.md', { slug: 'hello', lang: 'pt-BR' }],
    ['hello/index.md', { slug: 'hello', lang: null }],
    ['hello/index.de.md', { slug: 'hello', lang: 'de' }],
    ['node.js.md', { slug: 'node.js', lang: null }],
    ['v1.2.md', { slug: 'v1.2', lang: null }],
    ['release.notes.md', { slug: 'release.notes', lang: null }],
    ['hello/notes.md', null],
    ['hello/index.js.md', null],
    ['a/b/index.md', null],
    ['.hidden.md', null],
    ['.drafts/index.md', null],
    ['hello.txt', null],
    ['.md', null],
    ['hello.markdown', null],
  ];
  for (const [file, expected] of cases) {
    it(`${file} -> ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parsePostFileName(file, names), expected);
    });
  }
});

describe('checkSlug: only plain slugs can be served', () => {
  for (const slug of ['hello', 'node.js', 'été-2024', 'a_b-c', 'سلام', 'שלום-עולם']) {
    it(`accepts ${JSON.stringify(slug)}`, () => assert.equal(checkSlug(slug), null));
  }
  for (const slug of ['', '.', '..', 'a/b', 'a\\b', 'a b', 'what?', 'x#y', 'tab\there', 'nul\u0000', 'invoice\u202egnp.exe', 'rtl\u200fmark', 'isolate\u2067x\u2069']) {
    it(`refuses ${JSON.stringify(slug)}`, () => assert.notEqual(checkSlug(slug), null));
  }
});

describe('canonicalLanguage', () => {
  const cases: Array<[string, string | null]> = [
    ['en', 'en'],
    ['EN', 'en'],
    ['pt-br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['english', null],
    ['e', null],
    ['en_US', null],
    ['', null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => assert.equal(canonicalLanguage(input), expected));
  }
});
