// A catalog built on the previous one (catalog.ts reuses the groups of unchanged slugs and sorts their entries
// from their previous order) lists exactly what a catalog built from scratch lists, in the same order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildCatalog, groupBySlug, type Catalog } from '../../src/blog/catalog/catalog.js';
import type { LoadedPost } from '../../src/blog/content/loaded-post.js';
import { parsePostFile } from '../../src/blog/content/parse-post.js';
import { blogConfig, FIXTURE_POSTS, parseContext } from './fixture.js';

const config = blogConfig(FIXTURE_POSTS);
const context = parseContext(config);
const NOW = Date.parse('2025-01-01T00:00:00Z');

interface Spec {
  slug: string;
  lang: '' | 'fr' | 'de';
  day: number;
  draft: boolean;
}

function post({ slug, lang, day, draft }: Spec, edition: number): LoadedPost {
  const date = new Date(NOW + (day - 20) * 86_400_000).toISOString().slice(0, 10);
  const file = lang === '' ? `${slug}.md` : `${slug}.${lang}.md`;
  const outcome = parsePostFile(file, `+++\ntitle = "${slug} ${edition}"\ndate = ${date}\ndraft = ${draft}\n+++\nBody.\n`, context);
  assert.ok(outcome.ok);
  return outcome.post;
}

const spec = fc.record({ slug: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), lang: fc.constantFrom('' as const, 'fr' as const, 'de' as const), day: fc.integer({ min: 0, max: 30 }), draft: fc.boolean() });
/** One version per file name, as the library gives them. */
const versions = fc.uniqueArray(spec, { selector: (s) => `${s.slug}.${s.lang}`, maxLength: 20 });

const listing = (catalog: Catalog) => catalog.published.map((entry) => ({ file: entry.post.file, title: entry.post.title, primary: entry.primary, url: entry.url, translations: entry.translations }));

describe('a catalog built on the previous one', () => {
  it('lists what a catalog built from scratch lists, in the same order', () => {
    fc.assert(
      fc.property(versions, versions, fc.array(fc.nat()), (before, after, keptAt) => {
        const first = before.map((s) => post(s, 1));
        // The next version: some files unchanged (the same objects), the others new, edited or gone.
        const kept = [...new Set(keptAt.map((at) => first[at % Math.max(1, first.length)]).filter((p) => p !== undefined))];
        const taken = new Set(kept.map((p) => p.file));
        const next = [...kept, ...after.map((s) => post(s, 2)).filter((p) => !taken.has(p.file))];
        const previous = buildCatalog(groupBySlug(first), config.site!, config.blog!, NOW);
        const scratch = buildCatalog(groupBySlug(next), config.site!, config.blog!, NOW);
        // Built on the previous catalog by visiting every slug, and by visiting only the slugs that changed (those
        // of the files not kept, before or after).
        const changedSlugs = new Set([...first, ...next].filter((version) => !kept.includes(version)).map((version) => version.slug));
        for (const rebuilt of [
          buildCatalog(groupBySlug(next), config.site!, config.blog!, NOW, previous),
          buildCatalog(groupBySlug(next), config.site!, config.blog!, NOW, previous, changedSlugs),
        ]) {
          assert.deepEqual(listing(rebuilt), listing(scratch));
          assert.deepEqual(rebuilt.primaries.map((entry) => entry.post.file), scratch.primaries.map((entry) => entry.post.file));
          assert.deepEqual([...rebuilt.groups.keys()].sort(), [...scratch.groups.keys()].sort());
          assert.deepEqual([rebuilt.shownSince, rebuilt.nextRelease], [scratch.shownSince, scratch.nextRelease]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
