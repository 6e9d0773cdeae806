// Changes top-level keys of raw front matter in place, so that a save changes only what the person changed:
// every other byte (unknown keys, key order, comments, quoting, spacing, tables) stays as written. The parsers
// only say where each top-level key's value is: toml-eslint-parser (a TOML AST with source ranges; smol-toml's
// stringify would drop the comments and reformat the whole front matter) and yaml's parseDocument (node ranges,
// comments kept). New values are written by the same libraries: smol-toml for TOML values, a yaml Document
// for YAML values.
import { stringify as stringifyToml } from 'smol-toml';
import { parseTOML } from 'toml-eslint-parser';
import { Document, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import type { FrontMatterFormat } from './post-text.js';

/** A date written as the TOML literal it is (`date = 2024-05-01`), and as a plain string in YAML. */
export interface DateLiteral {
  date: string;
}

export type FrontMatterValue = string | boolean | string[] | DateLiteral | { src: string; alt?: string };

/** Sets `key` to `value`; `undefined` removes the key. */
export interface KeyEdit {
  key: string;
  value: FrontMatterValue | undefined;
}

export type EditOutcome = { ok: true; frontMatter: string } | { ok: false; reason: string };

interface Entry {
  /** Where the key starts, and where its value ends (trailing comments and line ends excluded). */
  start: number;
  end: number;
  /** Where the value alone starts; a single-line value is replaced alone, keeping `key = ` as written. */
  valueStart: number;
  /** How a YAML value was written, so that a new value keeps its style. */
  yaml?: { flow: boolean; scalarType?: string };
}

interface Layout {
  entries: Map<string, Entry>;
  /** Where a new key goes: after the last top-level key (TOML: before the first table). */
  insertAt: number;
}

/** Applies `edits` to the front matter `raw`; `newline` ends the lines of keys that are added. */
export function editFrontMatter(raw: string, format: FrontMatterFormat, edits: KeyEdit[], newline: string): EditOutcome {
  let text = raw;
  for (const edit of edits) {
    const layout = format === 'toml' ? locateToml(text) : locateYaml(text);
    if (typeof layout === 'string') return { ok: false, reason: layout };
    const entry = layout.entries.get(edit.key);
    if (edit.value === undefined) {
      if (entry) text = removeLines(text, entry);
      continue;
    }
    if (entry) {
      const value = renderValue(format, edit.value, entry);
      const single = !value.includes('\n') && !text.slice(entry.valueStart, entry.end).includes('\n');
      text = single && entry.valueStart < entry.end
        ? text.slice(0, entry.valueStart) + value + text.slice(entry.end)
        : text.slice(0, entry.start) + renderPair(format, edit.key, edit.value, entry) + text.slice(entry.end);
    } else {
      const line = renderPair(format, edit.key, edit.value).replace(/\n/g, newline) + newline;
      const at = layout.insertAt;
      const before = at > 0 && !text.slice(0, at).endsWith('\n') ? newline : '';
      text = text.slice(0, at) + before + line + text.slice(at);
    }
  }
  return { ok: true, frontMatter: text };
}

function locateToml(raw: string): Layout | string {
  let top;
  try {
    top = parseTOML(raw).body[0];
  } catch (error) {
    return `invalid TOML front matter: ${(error as Error).message.split('\n')[0]}`;
  }
  const entries = new Map<string, Entry>();
  let insertAt = 0;
  for (const node of top?.body ?? []) {
    if (node.type !== 'TOMLKeyValue') break;
    insertAt = lineEndAfter(raw, node.range[1]);
    if (node.key.keys.length !== 1) continue;
    const key = node.key.keys[0]!;
    const name = key.type === 'TOMLBare' ? key.name : key.value;
    entries.set(name, { start: node.range[0], end: node.range[1], valueStart: node.value.range[0] });
  }
  return { entries, insertAt };
}

function locateYaml(raw: string): Layout | string {
  const document = parseDocument(raw);
  if (document.errors.length > 0) return `invalid YAML front matter: ${document.errors[0]!.message.split('\n')[0]}`;
  const entries = new Map<string, Entry>();
  const contents = document.contents;
  if (isMap(contents)) {
    for (const pair of contents.items) {
      const key = pair.key as YamlNode | null;
      if (!isScalar(key) || typeof key.value !== 'string' || !key.range) continue;
      const value = pair.value as YamlNode | null;
      const valueRange = value?.range ?? key.range;
      const end = trimEnd(raw, valueRange[1]);
      const flow = value ? (isMap(value) || isSeq(value) ? Boolean(value.flow) : true) : true;
      const scalarType = isScalar(value) ? value.type : undefined;
      entries.set(key.value, { start: key.range[0], end, valueStart: value ? valueRange[0] : end, yaml: { flow, scalarType } });
    }
  }
  return { entries, insertAt: raw.length };
}

/** `key = value` or `key: value` for a key that is added or rewritten whole. */
function renderPair(format: FrontMatterFormat, key: string, value: FrontMatterValue, entry?: Entry): string {
  if (format === 'toml') return `${stringifyToml({ [key]: '' }).split(' = ')[0]} = ${renderToml(value)}`;
  return renderYamlPair(key, value, entry?.yaml ?? { flow: true });
}

function renderValue(format: FrontMatterFormat, value: FrontMatterValue, entry: Entry): string {
  if (format === 'toml') return renderToml(value);
  const pair = renderYamlPair('k', value, entry.yaml ?? { flow: true });
  return pair.includes('\n') ? pair : pair.replace(/^k: /, '');
}

function renderToml(value: FrontMatterValue): string {
  if (isDateLiteral(value)) return value.date;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const parts = Object.entries(value).filter(([, part]) => part !== undefined);
    return `{ ${parts.map(([name, part]) => `${name} = ${renderToml(part as string)}`).join(', ')} }`;
  }
  return stringifyToml({ v: value }).replace(/^v = /, '').trimEnd();
}

function renderYamlPair(key: string, value: FrontMatterValue, style: { flow: boolean; scalarType?: string }): string {
  const plain = isDateLiteral(value) ? value.date : value;
  const document = new Document({});
  const node = document.createNode(plain, { flow: style.flow || !Array.isArray(plain) });
  if (isScalar(node) && typeof plain === 'string' && style.scalarType) node.type = style.scalarType as typeof node.type;
  document.set(key, node);
  return document.toString({ lineWidth: 0, flowCollectionPadding: false }).trimEnd();
}

function isDateLiteral(value: unknown): value is DateLiteral {
  return typeof value === 'object' && value !== null && 'date' in value && Object.keys(value).length === 1;
}

/** Removes an entry's lines: from the start of its first line to the end of its last (with its comment). */
function removeLines(text: string, entry: Entry): string {
  const start = text.lastIndexOf('\n', entry.start - 1) + 1;
  const rest = text.slice(entry.end, lineEndAfter(text, entry.end));
  const end = /^\s*(?:#.*)?\r?\n?$/.test(rest) ? lineEndAfter(text, entry.end) : entry.end;
  return text.slice(0, start) + text.slice(end);
}

/** The position after the line end that follows `from` (or the end of the text). */
function lineEndAfter(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index + 1;
}

function trimEnd(text: string, end: number): number {
  let position = end;
  while (position > 0 && /[\s]/.test(text[position - 1]!)) position -= 1;
  return position;
}
