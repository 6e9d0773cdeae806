// Unsaved editor drafts in data_dir/admin-drafts/ (src/adapters/files/drafts.ts): a round trip per person and key,
// one file each, written atomically with nothing left over, and a damaged or misplaced file offering nothing.
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createDraftFiles, DRAFTS_FOLDER, draftsDirOf } from '../../../src/adapters/files/drafts.js';
import type { UnsavedDraft } from '../../../src/admin/drafts/draft-store.js';
import { withTempDir } from '../../support/temp-dir.js';

const fields = { title: 'Harbour', slug: '', date: '2025-03-01', tags: ['sea', 'boats'], draft: true, excerpt: '', cover: '', coverAlt: '', author: 'jane', lang: '', rawHtml: false };
const draft = (body: string, savedAt = 1_700_000_000_000): UnsavedDraft => ({ fields, body, savedAt });

describe('the files draft store', () => {
  it('keeps one draft per person and key, replaces it, and removes it', () =>
    withTempDir('drafts', async (dataDir) => {
      const store = createDraftFiles(draftsDirOf(dataDir));
      assert.equal(draftsDirOf(dataDir), path.join(dataDir, DRAFTS_FOLDER));
      assert.equal(await store.get('jane', 'harbour.md'), undefined, 'nothing before the folder exists');
      await store.put('jane', 'harbour.md', draft('Boats at dawn.'));
      await store.put('jane', 'new', draft('A new one.'));
      await store.put('adam', 'harbour.md', draft('Adam\u2019s text.'));
      assert.deepEqual(await store.get('jane', 'harbour.md'), draft('Boats at dawn.'));
      assert.deepEqual(await store.get('jane', 'new'), draft('A new one.'));
      assert.deepEqual(await store.get('adam', 'harbour.md'), draft('Adam\u2019s text.'));
      assert.equal(await store.get('jane', 'harbour/index.md'), undefined);

      await store.put('jane', 'harbour.md', draft('Boats at dusk.\r\n\u00e9\u{1F6A4}', 1_700_000_005_000));
      assert.deepEqual(await store.get('jane', 'harbour.md'), draft('Boats at dusk.\r\n\u00e9\u{1F6A4}', 1_700_000_005_000));

      const files = await readdir(draftsDirOf(dataDir));
      assert.equal(files.length, 3, 'one file per person and key, no temp file left');
      assert.ok(files.every((name) => /^[0-9a-f]{64}\.json$/.test(name)), 'no typed name becomes a file name');
      for (const name of files) assert.equal((await stat(path.join(draftsDirOf(dataDir), name))).mode & 0o077, 0, 'readable by the service alone');

      await store.remove('jane', 'harbour.md');
      await store.remove('jane', 'harbour.md');
      assert.equal(await store.get('jane', 'harbour.md'), undefined);
      assert.deepEqual(await store.get('adam', 'harbour.md'), draft('Adam\u2019s text.'), 'another person\u2019s draft stays');
    }));

  it('offers nothing for a damaged file or one written for another person', () =>
    withTempDir('drafts-odd', async (dataDir) => {
      const store = createDraftFiles(draftsDirOf(dataDir));
      await store.put('jane', 'a.md', draft('A'));
      await store.put('adam', 'b.md', draft('B'));
      const folder = draftsDirOf(dataDir);
      const names = await readdir(folder);
      const texts = await Promise.all(names.map((name) => readFile(path.join(folder, name), 'utf8')));
      const janeFile = names[texts.findIndex((text) => text.includes('"jane"'))]!;
      const adamFile = names[texts.findIndex((text) => text.includes('"adam"'))]!;
      // Adam's record copied over Jane's file name: it is not Jane's draft.
      await writeFile(path.join(folder, janeFile), await readFile(path.join(folder, adamFile)));
      assert.equal(await store.get('jane', 'a.md'), undefined);
      await writeFile(path.join(folder, janeFile), '{"user":"jane","key":"a.md","fie');
      assert.equal(await store.get('jane', 'a.md'), undefined);
      await writeFile(path.join(folder, janeFile), JSON.stringify({ user: 'jane', key: 'a.md', fields: { ...fields, tags: 'sea' }, body: 'A', savedAt: 1 }));
      assert.equal(await store.get('jane', 'a.md'), undefined, 'a field of the wrong type');
      await store.put('jane', 'a.md', draft('A again'));
      assert.deepEqual(await store.get('jane', 'a.md'), draft('A again'));
    }));
});
