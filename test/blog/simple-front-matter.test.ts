import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import jsYaml from 'js-yaml';
import { parse as parseToml, TomlDate } from 'smol-toml';
import { parseSimpleFrontMatter, type SimpleFormat } from '../../src/blog/content/simple-front-matter.js';

/** What the full parser makes of `raw`, as front-matter.ts uses it (nothing at all is no keys); 'error' if it throws. */
function parsed(raw: string, format: SimpleFormat): unknown {
  try {
    return (format === 'TOML' ? parseToml(raw) : jsYaml.load(raw, { schema: jsYaml.CORE_SCHEMA })) ?? {};
  } catch {
    return 'error';
  }
}

/** A comparable picture of a parsed value: key order, each object's prototype, and a TomlDate's own view. */
function picture(value: unknown): unknown {
  if (value instanceof TomlDate) {
    return { tomlDate: value.toISOString(), time: value.getTime(), isDate: value.isDate(), isLocal: value.isLocal() };
  }
  if (value instanceof Date) return { date: value.getTime() };
  if (Array.isArray(value)) return value.map(picture);
  if (typeof value === 'object' && value !== null) {
    return { prototype: Object.getPrototypeOf(value) === null ? 'none' : 'Object', entries: Object.entries(value).map(([key, item]) => [key, picture(item)]) };
  }
  return value;
}

const tricky = ['a', 'Z', 'é', ' ', '  ', '#', ':', ': ', '"', '\\', "'", '[', ']', ',', '{', '-', '.', '0', '9', 'T', 'z', '!', '&', '*', '%', '@', '|', '>', '~', '/', '(', '\t', '\u0085', '\u00a0', '\u2028', '\ufeff', '😀', '\ud800', '\u0001', '\u007f'];
const text = fc.string({ unit: fc.constantFrom(...tricky), maxLength: 8 });
const digits = (length: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '5', '9'), minLength: length, maxLength: length });
const date = fc.tuple(digits(4), digits(2), digits(2)).map(([year, month, day]) => `${year}-${month}-${day}`);
const dateTime = fc
  .tuple(date, fc.constantFrom('T', 't', ' '), digits(2), digits(2), digits(2), fc.constantFrom('', '.5', '.123456'), fc.constantFrom('Z', 'z', '', '+02:00', '-13:30', '+2:00'))
  .map(([day, separator, hour, minute, second, fraction, offset]) => `${day}${separator}${hour}:${minute}:${second}${fraction}${offset}`);
const quoted = text.map((inside) => `"${inside}"`);
const value = fc.oneof(
  quoted,
  text,
  fc.constantFrom('true', 'false', 'True', 'FALSE', 'null', 'Null', 'NULL', '~', 'yes', 'No', '12', '-1.5', '0x1F', '.inf', 'e5', 'Hello world', "it's fine", 'a - b', 'a # b', 'a: b', '""', '"a" # c', '"""x"""', "'x'", '[]', '[ ]', '{}'),
  date,
  dateTime,
  fc.array(quoted, { maxLength: 3 }).chain((items) => fc.constantFrom(',', ', ', ' , ').map((comma) => `[${items.join(comma)}]`)),
  fc.array(quoted, { minLength: 1, maxLength: 2 }).map((items) => `[${items.join(', ')},]`),
);
const key = fc.constantFrom('title', 'date', 'tags', 'draft', 'a-b', '_x', 'Title', '__proto__', 'constructor', '1a', 'a.b', 'a b', 'true');
const line = (format: SimpleFormat) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, format === 'TOML' ? fc.constantFrom(' = ', '=', ' =  ', '\t= ', ': ') : fc.constantFrom(': ', ':  ', ':', ' : ', ':\t', ' = '), value, fc.constantFrom('', ' ', '\t')).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: fc.constantFrom('', '# a comment', '  ', ' title: "x"', '- a', '[table]', '...', '\r') },
    { weight: 1, arbitrary: text.map((comment) => `#${comment}`) },
  );
const frontMatter = (format: SimpleFormat) =>
  fc.tuple(fc.array(line(format), { maxLength: 6 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([lines, newline, last]) => lines.join(newline) + (last ? newline : ''));

describe('parseSimpleFrontMatter: the front matter most posts have, without the full parser', () => {
  for (const format of ['YAML', 'TOML'] as const) {
    it(`reads ${format} exactly as the parser does whenever it reads it at all`, () => {
      let taken = 0;
      fc.assert(
        fc.property(frontMatter(format), (raw) => {
          const simple = parseSimpleFrontMatter(raw, format);
          if (simple === undefined) return;
          taken += 1;
          assert.deepEqual(picture(simple), picture(parsed(raw, format)), JSON.stringify(raw));
        }),
        { numRuns: 4000 },
      );
      // The generator reaches the shortcut often, or the comparison above would prove little.
      assert.ok(taken > 400, `only ${taken} of 4000 front matters were simple`);
    });
  }

  it('reads the usual front matter of a post in both formats', () => {
    const yaml = '---\ntitle: "A post: the first"\ndate: 2025-06-29T21:00:00Z\ntags: ["a", "b c"]\ndraft: false\nauthor: Ann Smith\n';
    assert.deepEqual(parseSimpleFrontMatter(yaml.slice(4), 'YAML'), { title: 'A post: the first', date: '2025-06-29T21:00:00Z', tags: ['a', 'b c'], draft: false, author: 'Ann Smith' });
    const toml = parseSimpleFrontMatter('title = "T"\r\ndate = 2025-06-29\r\ntags = []\r\n', 'TOML');
    assert.ok(toml);
    assert.equal(Object.getPrototypeOf(toml), null);
    assert.ok(toml.date instanceof TomlDate && toml.date.isDate());
    assert.deepEqual({ ...toml, date: String(toml.date.toISOString()) }, { title: 'T', date: '2025-06-29', tags: [] });
  });

  it('leaves to the parser what it would refuse or read another way', () => {
    for (const [raw, format] of [
      ['title: "a"\ntitle: "b"\n', 'YAML'],
      ['title = "a"\ntitle = "b"\n', 'TOML'],
      ['title: Null\n', 'YAML'],
      ['title: "a\\tb"\n', 'YAML'],
      ['date = 2025-06-29 10:00:00Z\n', 'TOML'],
      ['title: a: b\n', 'YAML'],
      ['tags:\n  - a\n', 'YAML'],
    ] as const) {
      assert.equal(parseSimpleFrontMatter(raw, format), undefined, raw);
    }
  });
});
