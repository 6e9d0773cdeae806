// The plain front-matter check in front of zod (content/front-matter-schema.ts checkFrontMatter) must answer
// exactly what zod answers: whenever it accepts, zod accepts with the same output; it never accepts what zod
// refuses. Property-based over values of every kind a YAML or TOML parser can give, for every key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFrontMatter, frontMatterSchema, plainFrontMatter } from '../../src/blog/content/front-matter-schema.js';

const anyValue = fc.oneof(
  fc.constantFrom('', ' ', '  x  ', 'Hello', '2024-05-01', '\u00a0', 'https://example.org/a.png'),
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(new Date('2024-05-01T00:00:00Z')),
  fc.constant(new Date(Number.NaN)),
  fc.array(fc.oneof(fc.constantFrom('a', ' b ', '', '  '), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.record({ src: fc.constantFrom('a.png', '', 3), alt: fc.constantFrom('An image', undefined, 4), other: fc.constant(1) }, { requiredKeys: [] }),
);

const KEYS = ['title', 'date', 'updated', 'draft', 'tags', 'lang', 'all_langs', 'comments', 'author', 'fediverse_creator', 'cover', 'excerpt', 'slug', 'other'];
const frontMatter = fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: KEYS.length });

/** Ordinary front matter, as most posts have it: the plain check must take it, or it saves nothing. */
const ordinary = fc.record(
  {
    title: fc.string({ minLength: 1 }).filter((title) => title.trim() !== ''),
    date: fc.oneof(fc.constant('2024-05-01'), fc.constant(new Date('2024-05-01T00:00:00Z'))),
    tags: fc.array(fc.constantFrom('a', 'Rust', ' spaced ')),
    draft: fc.boolean(),
    lang: fc.constantFrom('en', 'pt-BR'),
    author: fc.string(),
    cover: fc.oneof(fc.constantFrom('img/a.png', 'https://example.org/a.png'), fc.record({ src: fc.constant('img/a.png'), alt: fc.string() }, { requiredKeys: ['src'] })),
  },
  { requiredKeys: ['title', 'date'] },
);

/** Ordinary front matter with one key of any value: the plain check's every branch is reached. */
const ordinaryButOne = fc
  .tuple(ordinary, fc.constantFrom(...KEYS), anyValue)
  .map(([data, key, value]) => ({ ...data, [key]: value }));

describe('the plain front-matter check', () => {
  it('accepts only what zod accepts, with the same output', () => {
    fc.assert(
      fc.property(fc.oneof(frontMatter, ordinaryButOne), (data) => {
        const plain = plainFrontMatter(data);
        const zod = frontMatterSchema.safeParse(data);
        if (plain !== undefined) {
          assert.ok(zod.success, `plain accepted what zod refuses: ${JSON.stringify(data)}`);
          assert.deepEqual(plain, zod.data);
        }
        assert.deepEqual(checkFrontMatter(data), zod);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes ordinary front matter itself', () => {
    fc.assert(
      fc.property(ordinary, (data) => {
        const plain = plainFrontMatter(data);
        assert.notEqual(plain, undefined, JSON.stringify(data));
        assert.deepEqual(plain, frontMatterSchema.parse(data));
      }),
      { numRuns: 1000 },
    );
  });
});
