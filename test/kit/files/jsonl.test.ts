// The shared JSONL helpers: durable appends, tolerant reads, and lines torn by a crash.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createJsonlAppender, readJsonLines, repairTornTail } from '../../../src/kit/files/jsonl.js';

const appendJsonLine = createJsonlAppender();
import { withTempDir } from '../../support/temp-dir.js';

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

describe('appendJsonLine', () => {
  it('writes concurrent appends to one file as whole lines, in call order', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'log.jsonl');
      const records = Array.from({ length: 20 }, (_, index) => ({ index, text: 'x'.repeat(index * 100) }));
      await Promise.all(records.map((record) => appendJsonLine(file, record)));
      const read = await readJsonLines(file);
      assert.deepEqual(read, { records, badLines: [] });
    }));

  it('starts after a newline of its own when the file ends in a torn line, so the new record stays readable', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'archive.jsonl');
      await writeFile(file, '{"a":1}\n{"b":');
      await appendJsonLine(file, { c: 3 });
      assert.equal(await readFile(file, 'utf8'), '{"a":1}\n{"b":\n{"c":3}\n');
      assert.deepEqual(await readJsonLines(file), { records: [{ a: 1 }, { c: 3 }], badLines: [2] });
    }));

  it('rejects when the file cannot be opened, and later appends still go through', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'log.jsonl');
      await assert.rejects(appendJsonLine(path.join(dir, 'missing-folder', 'log.jsonl'), { a: 1 }), { code: 'ENOENT' });
      await appendJsonLine(file, { b: 2 });
      assert.equal(await readFile(file, 'utf8'), '{"b":2}\n');
    }));
});

describe('readJsonLines', () => {
  it('reads a missing file as empty and reports unparsable lines by number', () =>
    withTempDir('jsonl', async (dir) => {
      assert.deepEqual(await readJsonLines(path.join(dir, 'missing.jsonl')), { records: [], badLines: [] });
      const file = path.join(dir, 'mixed.jsonl');
      await writeFile(file, '{"a":1}\nnot json\n\n{"b":2}\n{"c":');
      assert.deepEqual(await readJsonLines(file), { records: [{ a: 1 }, { b: 2 }], badLines: [2, 5] });
    }));
});
