// The queue's done journal (src/kit/files/done-journal.ts): appends of one tick share a write, a rewrite keeps
// only what still matters, and appends racing a rewrite are not lost.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createDoneJournal } from '../../src/kit/files/done-journal.js';
import { withTempDir } from '../support/temp-dir.js';

describe('the done journal', () => {
  it('records slots, and a rewrite keeps the live ones and every append made meanwhile', async () =>
    withTempDir('done-journal', async (dir) => {
      const journal = createDoneJournal(dir);
      await Promise.all(['aa.0', 'aa.1', 'bb.0'].map((slot) => journal.append(slot)));
      assert.deepEqual([...(await createDoneJournal(dir).read())].sort(), ['aa.0', 'aa.1', 'bb.0']);

      // The store's rule: a slot is in the live set before it is appended.
      const live = new Set(['bb.0']);
      const appendLive = (slot: string) => {
        live.add(slot);
        return journal.append(slot);
      };
      const racing = appendLive('bb.1');
      await Promise.all([journal.compact(() => live, true), racing, appendLive('cc.0')]);
      await journal.close();
      assert.deepEqual([...(await createDoneJournal(dir).read())].sort(), ['bb.0', 'bb.1', 'cc.0']);
      assert.doesNotMatch(await readFile(path.join(dir, 'done.log'), 'utf8'), /^aa\./m, 'the removed segment is gone from the journal');
    }));
});
