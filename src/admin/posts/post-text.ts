// A post file in the pieces a save puts back together unchanged. The cut is the blog's own
// (src/blog/content/front-matter.ts splitFrontMatter), so a save splits a file exactly where the blog reads it.

import type { PostText } from '../../blog/content/front-matter.js';

export { splitFrontMatter as splitPostText, type FrontMatterFormat, type PostText } from '../../blog/content/front-matter.js';

/** The file text of `parts`; `joinPostText(splitPostText(text)!) === text` for every file with front matter. */
export function joinPostText(parts: PostText): string {
  let separator = parts.separator;
  // A closing fence on the last line has no line end; a body written after it needs one.
  if (parts.body !== '' && !/\n$/.test(separator)) separator += parts.newline;
  return parts.head + parts.frontMatter + separator + parts.body;
}

/** A body as the editor sent it (browsers send CRLF), in the file's own line ends. */
export function withNewlines(body: string, newline: string): string {
  const unix = body.replace(/\r\n?/g, '\n');
  return newline === '\n' ? unix : unix.replace(/\n/g, newline);
}

