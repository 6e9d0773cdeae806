// Reads config.toml: TOML -> ${VAR} substitution -> strict schema -> resolved paths -> frozen config.
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { contentDirProblem, resolveConfig, type Config } from './config.js';
import { resolveDkim } from './dkim.js';
import { readMailLayouts } from './mail-layouts.js';
import { nearestKey } from './nearest-key.js';
import { configSchema } from './schema.js';

/**
 * A problem with the configuration, named by its key path (e.g. `forms[1].type`); a TOML syntax error has the
 * path `(toml)` and its place in the file instead.
 */
export interface ConfigProblem {
  path: string;
  message: string;
  /** 1-based line and column of a syntax error. */
  line?: number;
  column?: number;
}

export type LoadResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/** Reads, parses and validates the file at `file`; `env` supplies `${NAME}` values. */
export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    return { ok: false, problems: [{ path: '(file)', message: `cannot read ${file}: ${reason}` }] };
  }
  const parsed = parseConfigText(text, env, path.dirname(path.resolve(file)));
  // The folders a file names are looked at once the file is valid, as the DKIM key is.
  const missing = parsed.ok ? contentDirProblem(parsed.config, isFolder) : undefined;
  return missing ? { ok: false, problems: [missing] } : parsed;
}

function isFolder(folder: string): boolean {
  return statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Parses TOML text; relative paths in the result are resolved against `baseDir`. */
export function parseConfigText(text: string, env: NodeJS.ProcessEnv, baseDir: string): LoadResult {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    return { ok: false, problems: [tomlSyntaxProblem(error)] };
  }
  const substitutionProblems: ConfigProblem[] = [];
  const substituted = substituteEnv(raw, env, [], substitutionProblems);
  if (substitutionProblems.length > 0) return { ok: false, problems: substitutionProblems };

  const knownKeys = new WeakMap<object, readonly string[]>();
  const result = configSchema.safeParse(substituted, { reportInput: true, error: (issue) => messageOf(issue, knownKeys) });
  if (!result.success) {
    return { ok: false, problems: result.error.issues.flatMap((issue) => problemsOf(issue, knownKeys)) };
  }
  // The DKIM key file is read once the rest of the file is valid (its path is known to be one by then).
  const dkim = result.data.mail?.dkim && resolveDkim(result.data.mail.dkim, baseDir);
  if (dkim && 'problem' in dkim) return { ok: false, problems: [dkim.problem] };
  const layouts = readMailLayouts(result.data.newsletter?.lists ?? [], baseDir);
  if ('problem' in layouts) return { ok: false, problems: [layouts.problem] };
  return { ok: true, config: deepFreeze(resolveConfig(result.data, baseDir, dkim?.dkim, layouts.layouts)) };
}

/**
 * Messages in the words of docs/configuration.md where zod's own would puzzle: a missing key "is required"
 * (zod says "Invalid input: expected string, received undefined"). Schema messages still win. For a table
 * with unknown keys it notes the table's known keys, which `problemsOf` suggests from.
 */
function messageOf(issue: z.core.$ZodRawIssue, knownKeys: WeakMap<object, readonly string[]>): string | undefined {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return 'is required';
  if (issue.code === 'unrecognized_keys' && typeof issue.input === 'object' && issue.input !== null) {
    const shape = (issue.inst as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (shape) knownKeys.set(issue.input, Object.keys(shape));
  }
  return undefined;
}

/** One problem per issue; one per unknown key, at its own key path, with the nearest known key of its table. */
function problemsOf(issue: z.core.$ZodIssue, knownKeys: WeakMap<object, readonly string[]>): ConfigProblem[] {
  if (issue.code !== 'unrecognized_keys') return [{ path: formatKeyPath(issue.path), message: issue.message }];
  const known = typeof issue.input === 'object' && issue.input !== null ? (knownKeys.get(issue.input) ?? []) : [];
  return issue.keys.map((key) => {
    const suggestion = nearestKey(key, known);
    return { path: formatKeyPath([...issue.path, key]), message: `unknown key${suggestion ? ` (did you mean ${suggestion}?)` : ''}` };
  });
}

/** smol-toml's error as one problem: its first line without the prefix, and where it is. */
function tomlSyntaxProblem(error: unknown): ConfigProblem {
  const reason = describeTomlError(error);
  return error instanceof TomlError ? { path: '(toml)', message: reason, line: error.line, column: error.column } : { path: '(toml)', message: reason };
}

/** The first line of a TOML parse error, e.g. `invalid TOML: control characters are not allowed in strings`. */
function describeTomlError(error: unknown): string {
  const first = (error as Error).message.split('\n')[0]?.replace(/^Invalid TOML document:\s*/, '').trim();
  return `invalid TOML: ${first || 'syntax error'}`;
}

/** Formats a schema path as a key path: `forms[1].telegram.chat_id`. */
export function formatKeyPath(keys: readonly PropertyKey[]): string {
  if (keys.length === 0) return '(root)';
  return keys
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

// `${NAME}` is replaced by the variable; `$${NAME}` stands for a literal `${NAME}`.
const variablePattern = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, keys: PropertyKey[], problems: ConfigProblem[]): unknown {
  if (typeof value === 'string') {
    return value.replace(variablePattern, (whole, escaped: string, name: string) => {
      if (escaped) return whole.slice(1);
      const replacement = env[name];
      if (replacement === undefined) {
        problems.push({ path: formatKeyPath(keys), message: `environment variable ${name} is not set` });
        return '';
      }
      return replacement;
    });
  }
  if (Array.isArray(value)) return value.map((item, index) => substituteEnv(item, env, [...keys, index], problems));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substituteEnv(item, env, [...keys, key], problems)]),
    );
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
