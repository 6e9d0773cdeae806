// Splits a post file into front matter and Markdown body, and parses the front matter with a real parser:
// TOML between `+++` lines (smol-toml) or YAML between `---` lines (js-yaml, YAML 1.2's core schema: a date stays
// the text it is written as, as in TOML's plain dates it is checked by content/dates.ts). docs/blog.md "Front matter".
// js-yaml reads a post's few keys some ten times faster than the `yaml` package, which /admin keeps for editing
// front matter in place (admin/posts/front-matter-edit.ts): every start reads every post, an edit one. The usual
// front matter (one key per line, plain values) is read first by simple-front-matter.ts, which answers exactly
// as these parsers do or leaves the text to them.
import jsYaml from 'js-yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import { detach } from '../text/detach.js';
import { parseSimpleFrontMatter } from './simple-front-matter.js';

export type FrontMatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

const fences = { '+++': 'TOML', '---': 'YAML' } as const;

export type FrontMatterFormat = 'toml' | 'yaml';

/**
 * A post file cut into pieces that join back into it byte for byte (the admin's saves edit one piece): what
 * precedes the front matter (a byte-order mark and the opening fence line), the raw front matter, the closing
 * fence line with the blank lines after it, and the Markdown body.
 */
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

/**
 * Cuts `text` at its fences: it starts with a `+++` (TOML) or `---` (YAML) line, and the front matter ends at
 * the next line that is exactly that fence. Null when there is no opening fence or no closing one.
 */
export function splitFrontMatter(text: string): PostText | null {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = text.slice(bom.length);
  const firstEnd = nextLineStart(source, 0);
  const fence = source.slice(0, firstEnd).trimEnd();
  if (fence !== '+++' && fence !== '---') return null;
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
        newline: source.slice(0, firstEnd).endsWith('\r\n') ? '\r\n' : '\n',
      };
    }
    position = end;
  }
  return null;
}

/** Parses `text` (a whole post file); the body is everything after the closing fence line. */
export function parseFrontMatter(text: string): FrontMatterResult {
  const parts = splitFrontMatter(text);
  if (parts === null) {
    const firstLine = text.replace(/^\uFEFF/, '').split('\n', 1)[0]!.trimEnd();
    if (firstLine !== '+++' && firstLine !== '---') {
      return { ok: false, reason: 'no front matter: the file must start with a "+++" (TOML) or "---" (YAML) line' };
    }
    return { ok: false, reason: `${fences[firstLine]} front matter is not closed by a "${firstLine}" line` };
  }
  // Parsed values may be views into the text they were cut from: a copy of the front matter alone keeps the
  // body from staying in memory through a kept title or tag (text/detach.ts).
  return parseData(detach(parts.frontMatter), parts.format === 'toml' ? 'TOML' : 'YAML', parts.body);
}

/** YAML 1.2's core schema: no timestamps, no YAML 1.1 `yes`/`no` booleans; a repeated key is an error. */
const YAML_OPTIONS: jsYaml.LoadOptions = { schema: jsYaml.CORE_SCHEMA };

function parseData(raw: string, format: 'TOML' | 'YAML', body: string): FrontMatterResult {
  let data: unknown;
  try {
    data = parseSimpleFrontMatter(raw, format) ?? (format === 'TOML' ? parseToml(raw) : jsYaml.load(raw, YAML_OPTIONS));
  } catch (error) {
    return { ok: false, reason: describeSyntaxError(error, format) };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data) || data instanceof Date) {
    return { ok: false, reason: `${format} front matter must be a set of keys` };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}

/**
 * `invalid TOML front matter at line 3, column 12: <the parser's first line>`, the place counted in the post
 * file: the front matter starts on its second line, after the fence.
 */
function describeSyntaxError(error: unknown, format: 'TOML' | 'YAML'): string {
  const first = (error instanceof jsYaml.YAMLException ? error.reason : (error as Error).message).split('\n')[0] ?? '';
  const message =
    first
      .replace(/^Invalid TOML document:\s*/, '')
      .replace(/ at line \d+, column \d+:?$/, '')
      .trim() || 'syntax error';
  const place =
    error instanceof TomlError ? { line: error.line, column: error.column }
    : error instanceof jsYaml.YAMLException && error.mark ? { line: error.mark.line + 1, column: error.mark.column + 1 }
    : undefined;
  const where = place ? ` at line ${place.line + 1}, column ${place.column}` : '';
  return `invalid ${format} front matter${where}: ${message}`;
}

function nextLineStart(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index + 1;
}
