// The shared JSONL helpers: durable appends (group-committed), tolerant reads, and lines torn by a crash.
import assert from 'node:assert/strict';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createJsonlAppender, createJsonlFiles, readJsonLines, repairTornTail, type AppendTarget } from '../../../src/kit/files/jsonl.js';
import { withTempDir } from '../../support/temp-dir.js';

const appendJsonLine = createJsonlAppender();

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

/**
 * Real files whose fsyncs wait until the test lets each one go (or fail): `syncs` counts them, and `onDisk[n]` is
 * the file's content when fsync n was asked for, so a test sees which lines each fsync covered.
 */
function gatedFiles() {
  const waiting: Array<{ go(): void; fail(error: Error): void }> = [];
  const onDisk: string[] = [];
  let writes = 0;
  const files = createJsonlFiles({
    open: async (file): Promise<AppendTarget> => {
      const handle = await open(file, 'a+', 0o600);
      return {
        stat: () => handle.stat(),
        read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
        write: (buffer, offset, length) => {
          writes += 1;
          return handle.write(buffer, offset, length);
        },
        async sync() {
          onDisk.push(await readFile(file, 'utf8'));
          await new Promise<void>((go, fail) => waiting.push({ go, fail }));
          await handle.sync();
        },
        truncate: (length) => handle.truncate(length),
        close: () => handle.close(),
      };
    },
  });
  return { files, waiting, onDisk, writes: () => writes, syncs: () => onDisk.length };
}

/** Lets the event loop turn `count` times: time for real file operations to run, without waiting on a clock. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Runs the event loop until `condition` holds (the appender works through real files), failing after many turns. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.ok(condition(), what);
}

const lineOf = (n: number) => `{"n":${n}}\n`;
const linesOf = (numbers: number[]) => numbers.map(lineOf).join('');

describe('appends to one file are group commits', () => {
  it('every append made while an fsync runs is written together and shares the next fsync, resolving only after it', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'archive.jsonl');
      const { files, waiting, onDisk, writes, syncs } = gatedFiles();
      const resolved: number[] = [];
      const append = (n: number) => files.append(file, { n }).then(() => void resolved.push(n));
      const first = append(0);
      await until(() => waiting.length === 1, 'the first fsync runs');
      const burst = Array.from({ length: 10 }, (_, index) => append(index + 1));
      await turns(50);
      assert.equal(syncs(), 1, 'nothing is fsynced while the first fsync runs');
      assert.deepEqual(resolved, []);
      waiting[0]!.go();
      await first;
      await until(() => waiting.length === 2, 'the second fsync runs');
      assert.deepEqual(resolved, [0], 'the burst waits for the fsync that covers it');
      assert.equal(onDisk[1], linesOf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 'the whole burst, in call order, before its one fsync');
      waiting[1]!.go();
      await Promise.all(burst);
      assert.equal(syncs(), 2, 'eleven appends, two fsyncs');
      assert.equal(writes(), 2, 'and one write per batch');
      assert.deepEqual(resolved, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }));

  it('a failed fsync rejects exactly the appends it covered and cuts their lines off; later appends go on', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'archive.jsonl');
      const { files, waiting } = gatedFiles();
      const outcomes = new Map<number, string>();
      const append = (n: number) =>
        files.append(file, { n }).then(
          () => void outcomes.set(n, 'done'),
          (error: Error) => void outcomes.set(n, error.message),
        );
      const all = [append(0)];
      await until(() => waiting.length === 1, 'the first fsync runs');
      all.push(append(1), append(2), append(3));
      waiting[0]!.go();
      await until(() => waiting.length === 2, 'the second fsync runs');
      all.push(append(4));
      waiting[1]!.fail(new Error('EIO: fsync failed'));
      await until(() => waiting.length === 3, 'the third fsync runs');
      // The failed batch is gone before the next one is written: no line of it survives to be read as a record.
      assert.equal(await readFile(file, 'utf8'), linesOf([0, 4]));
      waiting[2]!.go();
      await Promise.all(all);
      assert.deepEqual([...outcomes].sort(), [[0, 'done'], [1, 'EIO: fsync failed'], [2, 'EIO: fsync failed'], [3, 'EIO: fsync failed'], [4, 'done']]);
      assert.deepEqual(await readJsonLines(file), { records: [{ n: 0 }, { n: 4 }], badLines: [] });
    }));

  it('a rewrite of the file (exclusive) never runs inside a batch, and appends made meanwhile follow it', () =>
    withTempDir('jsonl', async (dir) => {
      const file = path.join(dir, 'archive.jsonl');
      const { files, waiting } = gatedFiles();
      const first = files.append(file, { n: 0 });
      await until(() => waiting.length === 1, 'the first fsync runs');
      let seen: string | undefined;
      const rewrite = files.exclusive(file, async () => {
        seen = await readFile(file, 'utf8');
        await writeFile(file, linesOf([0]).replace('0', '"rewritten"'));
      });
      const later = files.append(file, { n: 1 });
      await turns(50);
      assert.equal(seen, undefined, 'the rewrite waits for the batch under way');
      waiting[0]!.go();
      await first;
      await rewrite;
      await until(() => waiting.length === 2, 'the later append is written');
      waiting[1]!.go();
      await later;
      assert.equal(seen, linesOf([0]), 'the rewrite saw the whole first batch');
      assert.equal(await readFile(file, 'utf8'), `{"n":"rewritten"}\n${lineOf(1)}`);
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
