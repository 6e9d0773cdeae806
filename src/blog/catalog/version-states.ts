// Every post file with its state for the administration interface (src/blog/post-version-state.ts), from
// what the library loaded and the visibility rule the catalog uses. Pure: `now` is an argument.
import type { SkippedFile } from '../content/library.js';
import type { PostFileName } from '../content/file-name.js';
import type { PostVersion } from '../content/post.js';
import type { PostVersionState } from '../post-version-state.js';
import { visibilityOf } from './visibility.js';

export interface VersionStateContext {
  /** Slug and language from a file name (null when it names no post: not expected for a loaded file). */
  parseFileName(file: string): PostFileName | null;
  /** site.language: the language of a file that names none. */
  defaultLanguage: string;
}

/** One entry per file, in path order. */
export function listVersionStates(posts: readonly PostVersion[], skipped: readonly SkippedFile[], now: number, context: VersionStateContext): PostVersionState[] {
  const states = [
    ...posts.map((post) => ({ ...describe(post), state: visibilityOf(post, now) })),
    ...skipped.map((file): PostVersionState => {
      if (file.post) return { ...describe(file.post), state: 'broken', reason: file.reason };
      const name = context.parseFileName(file.file);
      return { file: file.file, slug: name?.slug ?? file.file, language: name?.lang ?? context.defaultLanguage, state: 'broken', reason: file.reason };
    }),
  ];
  return states.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function describe(post: PostVersion): Omit<PostVersionState, 'state'> {
  return { file: post.file, slug: post.slug, language: post.lang, title: post.title, date: post.date.text, ...(post.tags.length > 0 ? { tags: post.tags } : {}), ...(post.author ? { author: post.author } : {}) };
}
