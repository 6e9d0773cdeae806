// The group commit: what arrives while a commit runs goes, in order, in the next one, and every addition
// settles with the commit that held it, never before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createGroupCommit } from '../../../src/kit/files/group-commit.js';

interface Gate {
  promise: Promise<void>;
  open(): void;
  fail(error: Error): void;
}

function gate(): Gate {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Lets every queued promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A group commit whose commits wait for the test to open or fail them, recording each batch and its outcome. */
function gatedCommit() {
  const batches: number[][] = [];
  const gates: Gate[] = [];
  let running = 0;
  let overlapped = false;
  const add = createGroupCommit<number>(async (batch) => {
    running += 1;
    overlapped ||= running > 1;
    batches.push(batch);
    const own = gate();
    gates.push(own);
    try {
      await own.promise;
    } finally {
      running -= 1;
    }
  });
  const outcomes = new Map<number, 'done' | 'failed'>();
  const track = (item: number) =>
    add(item).then(
      () => void outcomes.set(item, 'done'),
      () => void outcomes.set(item, 'failed'),
    );
  return { batches, gates, outcomes, track, overlapped: () => overlapped };
}

describe('createGroupCommit', () => {
  it('commits a lone addition at once, and everything added meanwhile together in the next commit', async () => {
    const { batches, gates, outcomes, track } = gatedCommit();
    const first = track(1);
    await settle();
    assert.deepEqual(batches, [[1]]);
    const rest = [2, 3, 4, 5].map(track);
    await settle();
    assert.deepEqual(batches, [[1]], 'nothing else starts while a commit runs');
    assert.equal(outcomes.size, 0, 'nothing settles before its commit is done');
    gates[0]!.open();
    await first;
    await settle();
    assert.deepEqual(batches, [[1], [2, 3, 4, 5]]);
    assert.deepEqual([...outcomes], [[1, 'done']], 'the second batch is still running');
    gates[1]!.open();
    await Promise.all(rest);
    assert.deepEqual([...outcomes], [[1, 'done'], [2, 'done'], [3, 'done'], [4, 'done'], [5, 'done']]);
  });

  it('a failed commit rejects exactly the additions it held; the next one goes on', async () => {
    const { batches, gates, outcomes, track } = gatedCommit();
    const all = [track(1)];
    await settle();
    all.push(track(2), track(3));
    gates[0]!.open();
    await settle();
    all.push(track(4));
    gates[1]!.fail(new Error('EIO'));
    await settle();
    gates[2]!.open();
    await Promise.all(all);
    assert.deepEqual(batches, [[1], [2, 3], [4]]);
    assert.deepEqual([...outcomes].sort(), [[1, 'done'], [2, 'failed'], [3, 'failed'], [4, 'done']]);
  });

  it('a commit that throws before its first await rejects its batch, and the next addition is still committed', async () => {
    let calls = 0;
    const add = createGroupCommit<string>((batch) => {
      calls += 1;
      if (batch.includes('bad')) throw new Error('refused');
      return Promise.resolve();
    });
    await assert.rejects(add('bad'), /refused/);
    await add('good');
    assert.equal(calls, 2);
  });

  it('under any interleaving: batches are the additions in order, never overlap, and settle as their commit did', async () => {
    const step = fc.oneof(fc.constant('add' as const), fc.constant('open' as const), fc.constant('fail' as const));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const { batches, gates, outcomes, track, overlapped } = gatedCommit();
        const added: Array<Promise<void>> = [];
        const failedBatches = new Set<number>();
        let next = 0;
        let closed = 0;
        for (const kind of steps) {
          if (kind === 'add') added.push(track(next++));
          else if (closed < gates.length) {
            const index = closed++;
            if (kind === 'fail') {
              failedBatches.add(index);
              gates[index]!.fail(new Error('EIO'));
            } else gates[index]!.open();
          }
          await settle();
          // An addition has settled only if its batch's commit was closed.
          for (const [item] of outcomes) assert.ok(batches.findIndex((batch) => batch.includes(item)) < closed);
        }
        while (closed < gates.length || outcomes.size < next) {
          if (closed < gates.length) gates[closed++]!.open();
          await settle();
        }
        await Promise.all(added);
        assert.equal(overlapped(), false);
        assert.deepEqual(batches.flat(), Array.from({ length: next }, (_, item) => item));
        assert.ok(batches.every((batch) => batch.length > 0));
        batches.forEach((batch, index) => {
          for (const item of batch) assert.equal(outcomes.get(item), failedBatches.has(index) ? 'failed' : 'done');
        });
      }),
      { numRuns: 200 },
    );
  });
});
