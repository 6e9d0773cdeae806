// The comment store of data_dir (src/adapters/files/comment-files.ts) held to the CommentStore contract, and a slug
// with characters a file name cannot hold as they are.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { commentStoreContract, storedComment } from '../support/comment-store-contract.js';
import { createTempDir } from '../support/temp-dir.js';

describe('comment files', () => {
  const removals: Array<() => Promise<void>> = [];
  after(() => Promise.all(removals.map((remove) => remove())));
  commentStoreContract(async () => {
    const { dir, remove } = await createTempDir('comment-files');
    removals.push(remove);
    return { store: createCommentFiles(dir), reopen: async () => createCommentFiles(dir) };
  });

  it('keeps a slug with "@", "%" or dots apart from its neighbours', async () => {
    const { dir, remove } = await createTempDir('comment-files');
    try {
      const store = createCommentFiles(dir);
      await store.add(storedComment('a@b', 'x1'));
      await store.add(storedComment('a', 'x2', 0, { lang: 'b@en' }));
      await store.add(storedComment('..', 'x3'));
      const again = createCommentFiles(dir);
      assert.deepEqual((await again.listVersion({ slug: 'a@b', lang: 'en' })).map((comment) => comment.id), ['x1']);
      assert.deepEqual((await again.listVersion({ slug: 'a', lang: 'b@en' })).map((comment) => comment.id), ['x2']);
      assert.deepEqual((await again.listVersion({ slug: '..', lang: 'en' })).map((comment) => comment.id), ['x3']);
    } finally {
      await remove();
    }
  });
});
