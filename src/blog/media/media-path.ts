// The address of an image beside a post, /api/blog/media/<slug>/<file> (docs/blog.md "Images beside a post"),
// and the folders it may be in. Pure: the route reads the file.
import type { Catalog } from '../catalog/catalog.js';

export const MEDIA_PREFIX = '/api/blog/media/';

export interface MediaTarget {
  slug: string;
  /** A file name: one path segment, never hidden, never a dot segment. */
  name: string;
}

/**
 * Slug and file name from the path as the client sent it (still percent-encoded), or null. The encoded
 * form is read so that an encoded slash (`a%2F..%2Fb`) is refused rather than taken for a separator.
 */
export function parseMediaPath(rawPath: string): MediaTarget | null {
  if (!rawPath.startsWith(MEDIA_PREFIX)) return null;
  const parts = rawPath.slice(MEDIA_PREFIX.length).split('/');
  if (parts.length !== 2) return null;
  const [slug, name] = parts.map(decodeSegment);
  if (slug === null || name === null || slug === undefined || name === undefined) return null;
  if (name.startsWith('.') || slug === '.' || slug === '..') return null;
  return { slug, name };
}

function decodeSegment(segment: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (text === '' || /[/\\\p{Cc}]/u.test(text)) return null;
  return text;
}

/**
 * Folders (relative to content_dir) whose files `slug` serves: those of its published versions that live in
 * a folder (`<folder>/index.md`), the primary version's first. A slug with no published version has none:
 * the images of a draft or scheduled post are not served before the post is.
 */
export function mediaFoldersOf(catalog: Catalog, slug: string): string[] {
  const group = catalog.groups.get(slug);
  if (!group) return [];
  const entries = [...group.versions.values()].sort((a, b) => Number(b.primary) - Number(a.primary));
  const folders = entries.map((entry) => entry.post.file).filter((file) => file.includes('/')).map((file) => file.slice(0, file.lastIndexOf('/')));
  return [...new Set(folders)];
}
