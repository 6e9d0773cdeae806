// A post file cut into the pieces a save puts back together unchanged: what precedes the front matter (a
// byte-order mark and the opening fence line), the raw front matter, the closing fence line, the blank lines
// after it, and the Markdown body. The fences follow src/blog/content/front-matter.ts: a file starts with a
// `+++` (TOML) or `---` (YAML) line and the front matter ends at the next line that is exactly that fence.

export type FrontMatterFormat = 'toml' | 'yaml';

export interface PostText {
  format: FrontMatterFormat;
  /** Byte-order mark (if any) and the opening fence line with its line end. */
  head: string;
  /** The front matter between the fences, as written. */
  frontMatter: string;
  /** The closing fence line with its line end, then the blank lines before the body. */
  separator: string;
  /** The Markdown body, as the blog reads it. */
  body: string;
  /** `\r\n` when the opening fence line ends so, else `\n`: new lines follow the file's own style. */
  newline: string;
}

/** Cuts `text` into its pieces, or returns null when it has no closed front matter (the blog skips it too). */
export function splitPostText(text: string): PostText | null {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = text.slice(bom.length);
  const firstEnd = nextLineStart(source, 0);
  const fence = source.slice(0, firstEnd).trimEnd();
  if (fence !== '+++' && fence !== '---') return null;
  const newline = source.slice(0, firstEnd).endsWith('\r\n') ? '\r\n' : '\n';
  let position = firstEnd;
  while (position < source.length) {
    const end = nextLineStart(source, position);
    if (source.slice(position, end).trimEnd() === fence) {
      const blank = /^(?:[ \t]*\r?\n)*/.exec(source.slice(end))![0];
      return {
        format: fence === '+++' ? 'toml' : 'yaml',
        head: bom + source.slice(0, firstEnd),
        frontMatter: source.slice(firstEnd, position),
        separator: source.slice(position, end + blank.length),
        body: source.slice(end + blank.length),
        newline,
      };
    }
    position = end;
  }
  return null;
}

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

function nextLineStart(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index + 1;
}
