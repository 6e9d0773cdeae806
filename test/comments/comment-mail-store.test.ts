// The reply subscribers and comment mail tokens of data_dir (src/adapters/files/comment-mail-files.ts) held to the
// CommentMailStore contract.
import { after, describe } from 'node:test';
import { createCommentMailFiles } from '../../src/adapters/files/comment-mail-files.js';
import { commentMailStoreContract } from '../support/comment-mail-store-contract.js';
import { createTempDir } from '../support/temp-dir.js';

describe('comment mail files', () => {
  const removals: Array<() => Promise<void>> = [];
  after(() => Promise.all(removals.map((remove) => remove())));
  commentMailStoreContract(async () => {
    const { dir, remove } = await createTempDir('comment-mail-files');
    removals.push(remove);
    return { store: createCommentMailFiles(dir), reopen: async () => createCommentMailFiles(dir) };
  });
});
