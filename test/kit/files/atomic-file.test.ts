// A file written in pieces is replaced only once every piece is in: a source that fails midway leaves the old
// file as it was and no temp file behind.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomically } from '../../../src/kit/files/atomic-file.js';
import { withTempDir } from '../../support/temp-dir.js';

async function* pieces(failAfter?: number): AsyncGenerator<string> {
  for (let at = 0; at < 3; at += 1) {
    if (at === failAfter) throw new Error('source failed');
    yield `piece ${at}\n`;
  }
}

describe('writeFileAtomically with pieces', () => {
  it('writes every piece, in order', () =>
    withTempDir('atomic', async (dir) => {
      const file = path.join(dir, 'out.txt');
      await writeFileAtomically(file, pieces());
      assert.equal(await readFile(file, 'utf8'), 'piece 0\npiece 1\npiece 2\n');
    }));

  it('leaves the old file and no temp file when the pieces fail midway', () =>
    withTempDir('atomic', async (dir) => {
      const file = path.join(dir, 'out.txt');
      await writeFile(file, 'old\n');
      await assert.rejects(writeFileAtomically(file, pieces(2)), /source failed/);
      assert.equal(await readFile(file, 'utf8'), 'old\n');
      assert.deepEqual(await readdir(dir), ['out.txt']);
    }));
});
