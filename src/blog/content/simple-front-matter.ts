// The front matter most posts have, read without the full parser: one `key: value` (YAML) or `key = value`
// (TOML) per line, each value a double-quoted string without escapes, a list of such strings, true or false, or
// a date. Anything else (nesting, escapes, comments after a value, numbers, a repeated key) is left to js-yaml
// or smol-toml, which also give every error. Within its lines the result is exactly the parser's: the same
// values and types (YAML's core schema keeps dates as text, TOML makes a TomlDate) and the same kind of object.
// A first start parses every post, and the parsers' generality cost more there than reading the file.
import { TomlDate } from 'smol-toml';

export type SimpleFormat = 'TOML' | 'YAML';

/** Characters the shortcut leaves to the parser: controls, escapes, byte-order marks, line separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\\\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const YAML_LINE = /^([A-Za-z_][A-Za-z0-9_-]*): +(.*?) *$/;
const TOML_LINE = /^([A-Za-z_][A-Za-z0-9_-]*) *= *(.*?) *$/;
const QUOTED_LIST = /^\[ *(?:"[^"]*" *(?:, *"[^"]*" *)*)?\]$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** A YAML plain scalar that can only be text: a letter first, no `:` or `#`, no flow or quote indicators. */
const YAML_PLAIN_TEXT = /^[A-Za-z][A-Za-z0-9 ,.!?'()/+_-]*$/;
/** Plain words the YAML core schema reads as null or a boolean other than the two written in lower case. */
const YAML_WORDS = new Set(['null', 'Null', 'NULL', 'True', 'TRUE', 'False', 'FALSE']);

const NOT_SIMPLE = Symbol('not simple');
const QUOTE = 34;

/** The keys of `raw` as the format's parser reads them; undefined when `raw` is not that simple. */
export function parseSimpleFrontMatter(raw: string, format: SimpleFormat): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = format === 'TOML' ? Object.create(null) : {};
  const linePattern = format === 'TOML' ? TOML_LINE : YAML_LINE;
  let start = 0;
  while (start < raw.length) {
    const newline = raw.indexOf('\n', start);
    const end = newline === -1 ? raw.length : newline;
    // A CR belongs to the line end only before a LF (TOML refuses one alone).
    const line = newline !== -1 && raw.charCodeAt(end - 1) === 13 ? raw.slice(start, end - 1) : raw.slice(start, end);
    start = end + 1;
    if (line === '' || line.startsWith('#')) {
      if (UNSAFE.test(line)) return undefined;
      continue;
    }
    const match = linePattern.exec(line);
    if (!match || UNSAFE.test(line)) return undefined;
    const [, key, text] = match as unknown as [string, string, string];
    if (key === '__proto__' || Object.prototype.hasOwnProperty.call(data, key)) return undefined;
    const value = format === 'TOML' ? tomlValue(text) : yamlValue(text);
    if (value === NOT_SIMPLE) return undefined;
    data[key] = value;
  }
  return data;
}

function tomlValue(text: string): unknown {
  const common = quotedOrBoolean(text);
  if (common !== NOT_SIMPLE) return common;
  if (DATE.test(text) || DATE_TIME.test(text)) {
    const date = new TomlDate(text);
    return date.isValid() ? date : NOT_SIMPLE;
  }
  return NOT_SIMPLE;
}

function yamlValue(text: string): unknown {
  const common = quotedOrBoolean(text);
  if (common !== NOT_SIMPLE) return common;
  // The core schema has no timestamps: a date is the text it is written as.
  if (DATE.test(text) || DATE_TIME.test(text)) return text;
  return YAML_PLAIN_TEXT.test(text) && !YAML_WORDS.has(text) ? text : NOT_SIMPLE;
}

function quotedOrBoolean(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.charCodeAt(0) === QUOTE) return text.indexOf('"', 1) === text.length - 1 ? text.slice(1, -1) : NOT_SIMPLE;
  return QUOTED_LIST.test(text) ? quotedItems(text) : NOT_SIMPLE;
}

/** The strings of a list QUOTED_LIST matched: what lies between each pair of quotes. */
function quotedItems(list: string): string[] {
  const items: string[] = [];
  let open = list.indexOf('"');
  while (open !== -1) {
    const close = list.indexOf('"', open + 1);
    items.push(list.slice(open + 1, close));
    open = list.indexOf('"', close + 1);
  }
  return items;
}
