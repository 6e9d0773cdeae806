import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFrontMatter } from '../../src/blog/content/front-matter.js';

describe('parseFrontMatter: TOML between +++, YAML between ---', () => {
  it('reads TOML and keeps the body after the closing line', () => {
    const result = parseFrontMatter('+++\ntitle = "T"\ndate = 2024-05-01\ntags = ["a"]\n+++\n\nBody *here*.\n');
    assert.ok(result.ok);
    assert.equal(result.data.title, 'T');
    assert.ok(result.data.date instanceof Date);
    assert.deepEqual(result.data.tags, ['a']);
    assert.equal(result.body, 'Body *here*.\n');
  });

  it('reads YAML, with CRLF line ends and a byte-order mark', () => {
    const result = parseFrontMatter('\uFEFF---\r\ntitle: T\r\ndate: 2024-05-01\r\n---\r\nBody\r\n');
    assert.ok(result.ok);
    assert.deepEqual(result.data, { title: 'T', date: '2024-05-01' });
    assert.equal(result.body, 'Body\r\n');
  });

  it('ends the front matter at the first line that is exactly the fence; later rules stay in the body', () => {
    const result = parseFrontMatter('---\ntitle: "a --- b"\n---\nBody with\n---\na rule\n');
    assert.ok(result.ok);
    assert.equal(result.data.title, 'a --- b');
    assert.equal(result.body, 'Body with\n---\na rule\n');
  });

  it('accepts empty front matter as no keys', () => {
    const result = parseFrontMatter('---\n---\nBody');
    assert.ok(result.ok);
    assert.deepEqual(result.data, {});
  });

  const failures: Array<[string, string, RegExp]> = [
    ['no front matter', '# Title\n\nText', /no front matter/],
    ['front matter not on the first line', '\n+++\ntitle = "x"\n+++\n', /no front matter/],
    ['unclosed TOML', '+++\ntitle = "x"\n', /TOML front matter is not closed/],
    ['unclosed YAML', '---\ntitle: x\n', /YAML front matter is not closed/],
    ['broken TOML', '+++\ntitle = \n+++\n', /^invalid TOML front matter at line 2, column 9: invalid value$/],
    ['a TOML string left open, two lines down', '\uFEFF+++\r\ndate = 2024-05-01\r\ntitle = "Bad\r\n+++\r\n', /^invalid TOML front matter at line 3, column 13: /],
    ['broken YAML', '---\ntitle: [a, b\n---\n', /^invalid YAML front matter at line \d+, column \d+: (?!.* at line)/],
    ['YAML with a tab indent', '---\ntitle: T\ntags:\n\t- a\n---\n', /^invalid YAML front matter at line 4, column 1: /],
    ['YAML that is a list', '---\n- a\n- b\n---\n', /must be a set of keys/],
    ['YAML that is a scalar', '---\njust text\n---\n', /must be a set of keys/],
  ];
  for (const [name, text, reason] of failures) {
    it(`refuses ${name}`, () => {
      const result = parseFrontMatter(text);
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.reason, reason);
    });
  }
});
