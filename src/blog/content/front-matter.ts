// Splits a post file into front matter and Markdown body, and parses the front matter with a real parser:
// TOML between `+++` lines (smol-toml) or YAML between `---` lines (yaml). Contract section 4.
import { parse as parseToml, TomlError } from 'smol-toml';
import { parse as parseYaml, YAMLError } from 'yaml';

export type FrontMatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

const fences = { '+++': 'TOML', '---': 'YAML' } as const;

/** Parses `text` (a whole post file); the body is everything after the closing fence line. */
export function parseFrontMatter(text: string): FrontMatterResult {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstLineEnd = lineEnd(source, 0);
  const fence = source.slice(0, firstLineEnd).trimEnd();
  if (fence !== '+++' && fence !== '---') {
    return { ok: false, reason: 'no front matter: the file must start with a "+++" (TOML) or "---" (YAML) line' };
  }
  const format = fences[fence];
  let position = nextLine(source, firstLineEnd);
  while (position < source.length) {
    const end = lineEnd(source, position);
    if (source.slice(position, end).trimEnd() === fence) {
      const raw = source.slice(nextLine(source, firstLineEnd), position);
      const body = source.slice(nextLine(source, end)).replace(/^(?:[ \t]*\r?\n)+/, '');
      return parseData(raw, format, body);
    }
    position = nextLine(source, end);
  }
  return { ok: false, reason: `${format} front matter is not closed by a "${fence}" line` };
}

function parseData(raw: string, format: 'TOML' | 'YAML', body: string): FrontMatterResult {
  let data: unknown;
  try {
    data = format === 'TOML' ? parseToml(raw) : parseYaml(raw);
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
  const first = (error as Error).message.split('\n')[0] ?? '';
  const message =
    first
      .replace(/^Invalid TOML document:\s*/, '')
      .replace(/ at line \d+, column \d+:?$/, '')
      .trim() || 'syntax error';
  const place =
    error instanceof TomlError ? { line: error.line, column: error.column }
    : error instanceof YAMLError && error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col }
    : undefined;
  const where = place ? ` at line ${place.line + 1}, column ${place.column}` : '';
  return `invalid ${format} front matter${where}: ${message}`;
}

function lineEnd(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index;
}

function nextLine(text: string, end: number): number {
  return Math.min(text.length, end + 1);
}
