// The spam quarantine in data_dir (src/adapters/files/spam-files.ts): the SpamStore contract, and what the files
// hold across a restart: every add, claim and release, and the used challenges, read back by a new store over the
// folder; a prune rewrites both files without what it forgot; a line torn by a crash is cut and the log goes on;
// ids keep growing after a restart even when the clock went back; a failed write keeps nothing.
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createSpamFiles, spamDirOf } from '../../../src/adapters/files/spam-files.js';
import type { SpamStore } from '../../../src/forms/spam/quarantine.js';
import { createTestClock } from '../../support/clock.js';
import { spamEntry, spamStoreContract, T0 } from '../../support/spam-store-contract.js';
import { createTempDir } from '../../support/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function spamDir(): Promise<string> {
  const temp = await createTempDir('spam-files');
  cleanups.push(temp.remove);
  return spamDirOf(temp.dir);
}

const linesOf = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the spam quarantine in data_dir', () => {
  spamStoreContract(async () => {
    const store = createSpamFiles(await spamDir());
    return [store, store] as [SpamStore, SpamStore];
  });

  it('keeps a deletion across a restart, and a compaction after it', async () => {
    const folder = await spamDir();
    const first = createSpamFiles(folder);
    const gone = await first.quarantine(spamEntry('/contact', 1));
    const kept = await first.quarantine(spamEntry('/contact', 2));
    assert.equal(await first.discard('/contact', { id: gone }, T0 + 1, 600_000), 1);
    const second = createSpamFiles(folder);
    assert.deepEqual((await second.list('/contact', { limit: 10 })).map((entry) => entry.id), [kept]);
    const third = await second.quarantine(spamEntry('/contact', 3));
    assert.notEqual(third, gone, 'no id is handed out twice');
    await second.prune('/contact', T0 - 1);
    assert.deepEqual((await createSpamFiles(folder).list('/contact', { limit: 10 })).map((entry) => entry.id), [third, kept]);
  });

  it('reads back every add, claim, release and used challenge after a restart', async () => {
    const folder = await spamDir();
    const first = createSpamFiles(folder);
    const released = await first.quarantine(spamEntry('/contact', 1));
    const claimed = await first.quarantine(spamEntry('/contact', 2));
    const unclaimed = await first.quarantine(spamEntry('/contact', 3));
    const waiting = await first.quarantine(spamEntry('/newsletter', 4, { reasons: ['proof_of_work'] }));
    const now = T0 + 3_600_000;
    for (const id of [released, claimed, unclaimed]) assert.equal((await first.claim(id, now, 600_000)).kind, 'claimed');
    await first.released(released, now);
    await first.unclaim(unclaimed);
    assert.equal(await first.useOnce('nonce-1', T0 + 600_000), true);

    const second = createSpamFiles(folder);
    assert.deepEqual((await second.list('/contact', { limit: 10 })).map((entry) => entry.id), [unclaimed, claimed]);
    assert.deepEqual(await second.list('/newsletter', { limit: 10 }), [{ id: waiting, ...spamEntry('/newsletter', 4, { reasons: ['proof_of_work'] }) }]);
    assert.deepEqual(await second.claim(claimed, now + 1, 600_000), { kind: 'gone' }, 'the claim was kept');
    assert.equal((await second.claim(unclaimed, now + 1, 600_000)).kind, 'claimed', 'the unclaim was kept');
    assert.deepEqual(await second.claim(released, now + 86_400_000, 600_000), { kind: 'gone' }, 'the release was kept');
    assert.deepEqual(await second.countByDay(0), [
      { day: '2026-11-02', form: '/contact', count: 3 },
      { day: '2026-11-02', form: '/newsletter', count: 1 },
    ]);
    assert.equal(await second.useOnce('nonce-1', T0 + 600_000), false, 'a used challenge stays used');
    assert.equal(await second.useOnce('nonce-2', T0 + 600_000), true);
  });

  it('rewrites both files without what a prune forgot, and a restart reads the same', async () => {
    const folder = await spamDir();
    const store = createSpamFiles(folder);
    const old = await store.quarantine(spamEntry('/contact', 1));
    await store.claim(old, T0 + 1, 600_000);
    await store.released(old, T0 + 2);
    const oldOther = await store.quarantine(spamEntry('/other', 2));
    const young = await store.quarantine(spamEntry('/contact', 30));
    await store.claim(young, T0 + 3, 600_000);
    await store.useOnce('expired', T0);
    await store.useOnce('current', T0 + 3_600_000);
    const log = path.join(folder, 'quarantine.jsonl');
    assert.deepEqual((await linesOf(log)).map((line) => line.op), ['add', 'claim', 'released', 'add', 'add', 'claim']);

    assert.equal(await store.prune('/contact', T0 + 10 * 60_000), 1);
    const rewritten = await linesOf(log);
    assert.deepEqual(
      rewritten.map(({ op, id, claimedAt, releasedAt }) => ({ op, id, claimedAt, releasedAt })),
      [
        { op: 'add', id: oldOther, claimedAt: undefined, releasedAt: undefined },
        { op: 'add', id: young, claimedAt: T0 + 3, releasedAt: undefined },
      ],
      'one add line per entry kept, with its claim',
    );
    assert.deepEqual((await linesOf(path.join(folder, 'used-challenges.jsonl'))).map((line) => line.id), ['current']);

    const again = createSpamFiles(folder);
    assert.deepEqual((await again.list('/contact', { limit: 10 })).map((entry) => entry.id), [young]);
    assert.deepEqual(await again.claim(young, T0 + 4, 600_000), { kind: 'gone' }, 'its claim survived the rewrite');
    assert.deepEqual((await again.list('/other', { limit: 10 })).map((entry) => entry.id), [oldOther]);
    assert.equal(await again.useOnce('current', T0 + 3_600_000), false);
  });

  it('loses no change made while a prune rewrites the log', async () => {
    const folder = await spamDir();
    const store = createSpamFiles(folder);
    const old = await store.quarantine(spamEntry('/contact', 1));
    const waiting = await store.quarantine(spamEntry('/contact', 20));
    // Started together: the prune's rewrite and twenty new entries, a claim and a release share the writes.
    const [pruned, ...ids] = await Promise.all([
      store.prune('/contact', T0 + 10 * 60_000),
      ...Array.from({ length: 20 }, (_, index) => store.quarantine(spamEntry('/burst', 100 + index))),
      store.claim(waiting, T0 + 5, 600_000).then(() => store.released(waiting, T0 + 6)).then(() => 'done'),
    ]);
    assert.equal(pruned, 1);
    const again = createSpamFiles(folder);
    assert.equal(await again.count('/burst'), 20);
    assert.equal(await again.count('/contact'), 0);
    assert.deepEqual(await again.claim(old, T0 + 7, 600_000), { kind: 'gone' });
    assert.deepEqual(
      (await again.list('/burst', { limit: 20 })).map((entry) => entry.id),
      ids.slice(0, 20).reverse(),
    );
  });

  it('cuts a line torn by a crash and goes on appending after it', async () => {
    const folder = await spamDir();
    const first = createSpamFiles(folder);
    const kept = await first.quarantine(spamEntry('/contact', 1));
    await appendFile(path.join(folder, 'quarantine.jsonl'), '{"op":"add","id":"torn","form":"/contact","rece');
    const second = createSpamFiles(folder);
    const added = await second.quarantine(spamEntry('/contact', 2));
    assert.deepEqual((await second.list('/contact', { limit: 10 })).map((entry) => entry.id), [added, kept]);
    const third = createSpamFiles(folder);
    assert.equal(await third.count('/contact'), 2, 'the line after the torn one reads back');
  });

  it('makes ids that sort by arrival, also within one millisecond and after a restart with the clock set back', async () => {
    const folder = await spamDir();
    const clock = createTestClock(T0);
    const first = createSpamFiles(folder, { clock });
    const ids = await Promise.all(Array.from({ length: 5 }, (_, index) => first.quarantine(spamEntry('/contact', index))));
    assert.equal(new Set(ids).size, 5);
    clock.set(T0 - 3_600_000);
    const restarted = createSpamFiles(folder, { clock });
    const later = await restarted.quarantine(spamEntry('/contact', 9));
    assert.ok(ids.every((id) => id < later), `${later} after ${ids.join(', ')}`);
    assert.equal((await restarted.list('/contact', { limit: 1 }))[0]?.id, later);
  });

  it('keeps nothing of a quarantine or claim whose write failed, and rejects', async () => {
    const folder = await spamDir();
    const store = createSpamFiles(folder);
    const id = await store.quarantine(spamEntry('/contact', 1));
    // The log replaced by a folder: every append fails (as a full disk would), whoever runs the test.
    const log = path.join(folder, 'quarantine.jsonl');
    await rm(log);
    await mkdir(log);
    await assert.rejects(store.quarantine(spamEntry('/contact', 2)));
    assert.equal(await store.count('/contact'), 1, 'the failed one is not listed');
    await assert.rejects(store.claim(id, T0, 600_000));
    await rm(log, { recursive: true });
    assert.equal((await store.claim(id, T0, 600_000)).kind, 'claimed', 'the failed claim held nothing');
  });

  it('starts empty without a folder, and reads a folder it did not write', async () => {
    const folder = await spamDir();
    assert.equal(await createSpamFiles(folder).count('/contact'), 0);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'used-challenges.jsonl'), `${JSON.stringify({ id: 'n', expiresAt: T0 })}\n`);
    assert.equal(await createSpamFiles(folder).useOnce('n', T0), false);
  });
});
