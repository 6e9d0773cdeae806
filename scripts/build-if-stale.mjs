// `npm start` builds only when the build is missing or older than what it is built from (src/, the build script,
// the locked packages): `npm install` has just built it, and a second build would only make the start slower.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (file) => path.join(root, file);

/** The newest modification time under `file` (a file or a folder), in milliseconds. */
function newest(file) {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

let built = -Infinity;
try {
  built = statSync(at('dist/cli.js')).mtimeMs;
} catch {
  // No build yet.
}
const sources = Math.max(newest(at('src')), newest(at('scripts/bundle.mjs')), newest(at('package-lock.json')), newest(at('tsconfig.json')));
if (sources > built) {
  const result = spawnSync(process.execPath, [at('scripts/bundle.mjs')], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
