// The shared JSONL helpers: the repair of a last line torn by a crash.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { appendJsonLine, repairTornTail } from '../../src/storage/jsonl.js';
import { withTempDir } from '../support/temp-dir.js';

describe('repairTornTail', () => {
  it('cuts a last line without a newline, so the next append starts a line of its own', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'state.jsonl');
      await writeFile(file, '{"a":1}\n{"b":');
      assert.equal(await repairTornTail(file), true);
      await appendJsonLine(file, { c: 3 });
      assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"c":3}\n');
    }));

  it('leaves a file of whole lines, an empty file and a missing file alone', () =>
    withTempDir('jsonl', async (dir) => {
      const whole = path.join(dir, 'whole.jsonl');
      await writeFile(whole, '{"a":1}\n');
      assert.equal(await repairTornTail(whole), false);
      assert.equal(await readFile(whole, 'utf8'), '{"a":1}\n');
      const empty = path.join(dir, 'empty.jsonl');
      await writeFile(empty, '');
      assert.equal(await repairTornTail(empty), false);
      assert.equal(await repairTornTail(path.join(dir, 'missing.jsonl')), false);
    }));

  it('cuts a file that is one torn line down to nothing', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'torn.jsonl');
      await writeFile(file, '{"a":');
      assert.equal(await repairTornTail(file), true);
      assert.equal(await readFile(file, 'utf8'), '');
    }));
});
