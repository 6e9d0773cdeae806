// The reloader's two lanes: a reload of named paths does not wait behind a reload of everything, and requests
// made during a reload fold into exactly one more.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReloader } from '../../src/blog/content/reloader.js';

/** A reload that records each call and finishes only when told to. */
function recordingReload() {
  const calls: Array<string[] | 'everything'> = [];
  const waiting: Array<() => void> = [];
  const reload = (paths: readonly string[] | undefined) => {
    calls.push(paths ? [...paths].sort() : 'everything');
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const finishAll = async () => {
    while (waiting.length > 0) {
      waiting.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { calls, reload, finishAll, waiting: () => waiting.length };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('reloader', () => {
  it('runs a reload of named paths while a reload of everything is still running', async () => {
    const { calls, reload, finishAll, waiting } = recordingReload();
    const reloader = createReloader(reload, (error) => assert.fail(String(error)));
    reloader.request();
    reloader.request(['a.md']);
    await turn();
    assert.deepEqual(calls, ['everything', ['a.md']]);
    assert.equal(waiting(), 2, 'both run at once');
    let idle = false;
    void reloader.idle().then(() => (idle = true));
    await finishAll();
    assert.ok(idle);
  });

  it('folds the requests made during a reload into one more, per lane', async () => {
    const { calls, reload, finishAll } = recordingReload();
    const reloader = createReloader(reload, (error) => assert.fail(String(error)));
    reloader.request(['a.md']);
    reloader.request();
    reloader.request(['b.md']);
    reloader.request(['c.md', 'b.md']);
    reloader.request();
    reloader.request();
    await finishAll();
    await reloader.idle();
    assert.deepEqual(calls, [['a.md'], 'everything', ['b.md', 'c.md'], 'everything']);
  });

  it('reports a failed reload and goes on; after close it takes no requests', async () => {
    const errors: unknown[] = [];
    const calls: string[] = [];
    const reloader = createReloader(async (paths) => {
      calls.push(paths ? paths.join() : 'everything');
      if (paths?.includes('bad.md')) throw new Error('boom');
    }, (error) => errors.push(error));
    reloader.request(['bad.md']);
    await reloader.idle();
    reloader.request(['good.md']);
    await reloader.idle();
    await reloader.close();
    reloader.request();
    await reloader.idle();
    assert.deepEqual(calls, ['bad.md', 'good.md']);
    assert.equal((errors[0] as Error).message, 'boom');
  });
});
