// The blog's ActivityPub records in data_dir/activitypub/ (src/adapters/files/activitypub-files.ts): the store contract.
import { after, describe } from 'node:test';
import { createActivityPubFiles } from '../../../src/adapters/files/activitypub-files.js';
import { activityPubStoreContract } from '../../support/activitypub-store-contract.js';
import { createTempDir } from '../../support/temp-dir.js';

describe('ActivityPub records in data_dir', () => {
  const removals: Array<() => Promise<void>> = [];
  after(async () => {
    for (const remove of removals) await remove();
  });
  activityPubStoreContract(async () => {
    const { dir, remove } = await createTempDir('activitypub-files');
    removals.push(remove);
    return { store: createActivityPubFiles(dir), reopen: async () => createActivityPubFiles(dir) };
  });
});
