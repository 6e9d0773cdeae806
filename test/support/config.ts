// Test configurations: written as plain objects, turned into TOML and loaded by the real loader, so every
// default and check of src/config applies exactly as for a user's config.toml.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config/config.js';

export type TomlTable = Record<string, unknown>;

/** `table` as TOML text. */
export function toToml(table: TomlTable): string {
  return stringify(table);
}

/** Loads `table` (or TOML text) like `postbox serve` would; throws listing the problems if it is invalid. */
export function loadTestConfig(source: TomlTable | string, baseDir: string, env: NodeJS.ProcessEnv = {}): Config {
  const result = parseConfigText(typeof source === 'string' ? source : toToml(source), env, baseDir);
  if (!result.ok) {
    throw new Error(`test config rejected:\n${result.problems.map((problem) => `  ${problem.path}: ${problem.message}`).join('\n')}`);
  }
  return result.config;
}

/** Writes `source` to `<dir>/<name>` and returns the file's path, for tests that run the CLI. */
export async function writeConfigFile(dir: string, source: TomlTable | string, name = 'config.toml'): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof source === 'string' ? source : toToml(source), 'utf8');
  return file;
}
