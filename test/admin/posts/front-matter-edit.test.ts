// Round-trip fidelity of front-matter edits: only the changed key's text differs, in TOML and in YAML.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editFrontMatter, type KeyEdit } from '../../../src/admin/posts/front-matter-edit.js';
import { joinPostText, splitPostText, withNewlines } from '../../../src/admin/posts/post-text.js';
import { parseFrontMatter } from '../../../src/blog/content/front-matter.js';

const toml = `# site generator settings come first
title = "Hello, world"   # shown in lists
date = 2024-05-01
weight = 3.0
tags = [ "a",
  "b" ]
custom = { nested = 1 }
updated = 2024-05-01T09:30:00+02:00

[extra]
menu = "main" # kept
`;

const yaml = `# leading comment
title: Hello, world   # shown in lists
date: 2024-05-01
tags: [a, b]
custom:
  nested: 1   # keep me
  list:
    - x
excerpt: >-
  folded
  text
fediverse_creator: "@ada@example.social"
quoted: 'single'

weird:    spaced
`;

function edit(raw: string, format: 'toml' | 'yaml', edits: KeyEdit[]): string {
  const outcome = editFrontMatter(raw, format, edits, '\n');
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  return outcome.frontMatter;
}

/** The lines of `after` that are not in `before`, and those of `before` that are gone. */
function lineDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const old = before.split('\n');
  const now = after.split('\n');
  return { added: now.filter((line) => !old.includes(line)), removed: old.filter((line) => !now.includes(line)) };
}

describe('editFrontMatter: TOML keeps every byte it does not change', () => {
  const cases: Array<[string, KeyEdit[], string[], string[]]> = [
    ['a changed title keeps its comment and spacing', [{ key: 'title', value: 'New "title"' }],
      ['title = "New \\"title\\""   # shown in lists'], ['title = "Hello, world"   # shown in lists']],
    ['a changed date is a TOML date', [{ key: 'date', value: { date: '2024-06-02' } }], ['date = 2024-06-02'], ['date = 2024-05-01']],
    ['a multi-line array is replaced whole', [{ key: 'tags', value: ['c'] }], ['tags = [ "c" ]'], ['tags = [ "a",', '  "b" ]']],
    ['a new key goes after the last top-level key, before the tables', [{ key: 'draft', value: true }], ['draft = true'], []],
    ['a removed key takes its line with it', [{ key: 'weight', value: undefined }], [], ['weight = 3.0']],
    ['a cover table is an inline table', [{ key: 'cover', value: { src: 'a.png', alt: 'A lake' } }], ['cover = { src = "a.png", alt = "A lake" }'], []],
    ['removing a missing key changes nothing', [{ key: 'author', value: undefined }], [], []],
  ];
  for (const [name, edits, added, removed] of cases) {
    it(name, () => {
      const after = edit(toml, 'toml', edits);
      assert.deepEqual(lineDiff(toml, after), { added, removed });
    });
  }

  it('puts a new key before the first table, where it stays a top-level key', () => {
    const after = edit(toml, 'toml', [{ key: 'draft', value: true }]);
    assert.match(after, /updated = 2024-05-01T09:30:00\+02:00\ndraft = true\n\n\[extra\]/);
    const parsed = parseFrontMatter(`+++\n${after}+++\n`);
    assert.ok(parsed.ok);
    assert.equal(parsed.data.draft, true);
    assert.deepEqual(Object.keys(parsed.data), ['title', 'date', 'weight', 'tags', 'custom', 'updated', 'draft', 'extra']);
  });

  it('adds keys to front matter that has none, and to one with only a table', () => {
    assert.equal(edit('', 'toml', [{ key: 'title', value: 'T' }, { key: 'date', value: { date: '2024-05-01' } }]), 'title = "T"\ndate = 2024-05-01\n');
    assert.equal(edit('[extra]\nk = 1\n', 'toml', [{ key: 'title', value: 'T' }]), 'title = "T"\n[extra]\nk = 1\n');
  });
});

describe('editFrontMatter: YAML keeps comments, quoting and spacing it does not change', () => {
  const cases: Array<[string, KeyEdit[], string[], string[]]> = [
    ['a changed title keeps its comment and spacing', [{ key: 'title', value: 'New: title' }],
      ['title: "New: title"   # shown in lists'], ['title: Hello, world   # shown in lists']],
    ['a flow list stays a flow list', [{ key: 'tags', value: ['c', '@d'] }], ['tags: [c, "@d"]'], ['tags: [a, b]']],
    ['a quoted handle keeps its quotes', [{ key: 'fediverse_creator', value: '@bob@example.social' }],
      ['fediverse_creator: "@bob@example.social"'], ['fediverse_creator: "@ada@example.social"']],
    ['a folded scalar stays folded', [{ key: 'excerpt', value: 'short' }], ['  short'], ['  folded', '  text']],
    ['a new key goes at the end', [{ key: 'draft', value: true }], ['draft: true'], []],
    ['a removed key takes its line with it', [{ key: 'quoted', value: undefined }], [], ["quoted: 'single'"]],
    ['a nested map can go, with its comments', [{ key: 'custom', value: undefined }], [], ['custom:', '  nested: 1   # keep me', '  list:', '    - x']],
    ['a date stays a plain date', [{ key: 'date', value: { date: '2024-06-02' } }], ['date: 2024-06-02'], ['date: 2024-05-01']],
    ['a cover table is a flow map', [{ key: 'cover', value: { src: '/img/a.png', alt: 'A lake' } }], ['cover: {src: /img/a.png, alt: A lake}'], []],
  ];
  for (const [name, edits, added, removed] of cases) {
    it(name, () => {
      const after = edit(yaml, 'yaml', edits);
      assert.deepEqual(lineDiff(yaml, after), { added, removed });
    });
  }

  it('writes a multi-line value as a block scalar that reads back the same', () => {
    const after = edit(yaml, 'yaml', [{ key: 'excerpt', value: 'one\ntwo' }]);
    const parsed = parseFrontMatter(`---\n${after}---\n`);
    assert.ok(parsed.ok);
    assert.equal(parsed.data.excerpt, 'one\ntwo');
    assert.equal(parsed.data.weird, 'spaced');
  });

  it('refuses front matter it cannot parse rather than guess', () => {
    assert.equal(editFrontMatter('title: [\n', 'yaml', [{ key: 'title', value: 'x' }], '\n').ok, false);
    assert.equal(editFrontMatter('title = \n', 'toml', [{ key: 'title', value: 'x' }], '\n').ok, false);
  });
});

describe('splitPostText and joinPostText', () => {
  const files = [
    '+++\ntitle = "T"\n+++\n\nBody\n',
    '\uFEFF---\r\ntitle: T\r\n---\r\n\r\nBody\r\n',
    '---\ntitle: T\n---',
    '---\n---\nBody with\n---\na rule\n',
  ];
  for (const file of files) {
    it(`gives back ${JSON.stringify(file)} unchanged, with the body the blog reads`, () => {
      const parts = splitPostText(file);
      assert.ok(parts);
      assert.equal(joinPostText(parts), file);
      const blog = parseFrontMatter(file);
      assert.ok(blog.ok);
      assert.equal(parts.body, blog.body);
    });
  }

  it('refuses a file without front matter, and one whose front matter is not closed', () => {
    assert.equal(splitPostText('# Title\n'), null);
    assert.equal(splitPostText('+++\ntitle = "x"\n'), null);
  });

  it('writes a body in the file\'s own line ends', () => {
    assert.equal(withNewlines('a\r\nb\n', '\n'), 'a\nb\n');
    assert.equal(withNewlines('a\nb\r\n', '\r\n'), 'a\r\nb\r\n');
  });
});
