// The first line of the caches Postbox keeps in data_dir (the blog's load cache, the `q` index's words): the format
// the file is laid out in, and what its content was made under (Postbox's version, content_dir, ...). A cache whose
// first line differs in either is not used.

/** What a cache's content was made under, by name. */
export type CacheKey = Readonly<Record<string, string>>;

/** Whether `header` (the parsed first line) is `{ format, key }` with this format and exactly this key. */
export function isCacheHeader(header: unknown, format: number, key: CacheKey): header is Record<string, unknown> {
  if (!isObject(header) || header.format !== format || !isObject(header.key)) return false;
  const written = header.key;
  const names = Object.keys(key);
  return names.length === Object.keys(written).length && names.every((name) => written[name] === key[name]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
