// Runs every test/**/*.test.ts with Node's test runner through tsx, on the Node.js that runs this script (under
// `npm test`, the one package.json brings on linux-x64: README.md "Node.js"). Arguments narrow the run to files whose
// path contains one of them: `npm test -- forms/`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

function findTests(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// The first line says which Node.js the tests run on, and where it comes from.
console.log(`Node.js ${process.version} (${process.execPath})`);

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// Two files at a time whatever the cores (Node's default is one fewer than the cores: one file at a time on two):
// most files wait on servers, browsers and sockets, not on the CPU.
const CONCURRENCY = Math.max(2, availableParallelism() - 1);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
