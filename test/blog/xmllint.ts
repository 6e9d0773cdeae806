// Validates XML against an XSD with xmllint (libxml2-utils). A missing xmllint fails the test: it must
// never turn into a skipped schema check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface XmllintResult {
  valid: boolean;
  output: string;
}

/** Writes `xml` into `dir` and runs `xmllint --nonet --noout --schema <schema>` on it. */
export function validateXml(xml: string, schema: string, dir: string): XmllintResult {
  const file = path.join(dir, `document-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const run = spawnSync('xmllint', ['--nonet', '--noout', '--schema', schema, file], { encoding: 'utf8' });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') {
    assert.fail('xmllint is not installed; install it with `apt-get install libxml2-utils` (bash .ci/run does this)');
  }
  return { valid: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
