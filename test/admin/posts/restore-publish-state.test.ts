// Restoring a version keeps the post's publish state now (docs/admin.md "Posts in git"): a version that was a
// draft does not take a live post off the blog, and a published version does not publish a draft.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createPostFiles } from '../../../src/admin/posts/post-files.js';
import { createTempDir } from '../../support/temp-dir.js';

const LIVE = '+++\ntitle = "Live"\ndate = 2024-05-01\n+++\nThe words now.\n';
const DRAFT_VERSION = '+++\ntitle = "Live"\ndate = 2024-05-01\ndraft = true\n+++\nThe words of a draft.\n';

describe('restoring a version', () => {
  it('keeps a live post live and a draft a draft', async () => {
    const { dir, remove } = await createTempDir('restore-state');
    try {
      const posts = createPostFiles({ contentDir: dir, trashDir: path.join(dir, '.trash'), clock: () => 0 });
      await writeFile(path.join(dir, 'live.md'), LIVE);
      const live = await posts.read('live.md');
      assert.ok(live.ok);
      assert.ok((await posts.restore('live.md', live.post.version, DRAFT_VERSION, 'abc1234')).ok);
      assert.equal(await readFile(path.join(dir, 'live.md'), 'utf8'), '+++\ntitle = "Live"\ndate = 2024-05-01\n+++\nThe words of a draft.\n');

      await writeFile(path.join(dir, 'draft.md'), DRAFT_VERSION);
      const draft = await posts.read('draft.md');
      assert.ok(draft.ok);
      assert.ok((await posts.restore('draft.md', draft.post.version, LIVE, 'abc1234')).ok);
      assert.match(await readFile(path.join(dir, 'draft.md'), 'utf8'), /^draft = true$/m);
    } finally {
      await remove();
    }
  });
});
