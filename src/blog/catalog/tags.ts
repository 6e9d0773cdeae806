// GET /tags: counts over published primary versions, most frequent first, then by name (docs/blog.md
// "/posts parameters", on tags).
import { compareText, type CatalogEntry } from './catalog.js';

export interface TagCount {
  name: string;
  count: number;
}

/**
 * Tags that differ only in case are one tag (the `tag` filter matches them alike); it is shown in its most
 * used spelling, ties going to the spelling that sorts first.
 */
export function countTags(primaries: readonly CatalogEntry[]): TagCount[] {
  const byKey = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const entry of primaries) {
    entry.post.tags.forEach((tag, index) => {
      const key = entry.tagKeys[index]!;
      let bucket = byKey.get(key);
      if (!bucket) byKey.set(key, (bucket = { count: 0, spellings: new Map() }));
      bucket.count += 1;
      bucket.spellings.set(tag, (bucket.spellings.get(tag) ?? 0) + 1);
    });
  }
  const counts = [...byKey.values()].map(({ count, spellings }) => {
    const [name] = [...spellings].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]!;
    return { name, count };
  });
  return counts.sort((a, b) => b.count - a.count || compareText(a.name, b.name));
}
