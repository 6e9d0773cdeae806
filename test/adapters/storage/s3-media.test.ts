// Blog media in the bucket (src/adapters/storage/s3-media.ts) against s3rver: objects under media/<folder>/, listed
// with their sizes, names that are no single segment refused, and the attachments' sweep leaving them alone even
// with an empty attachments prefix.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createS3Attachments } from '../../../src/adapters/storage/s3-attachments.js';
import { createS3Client } from '../../../src/adapters/storage/s3-client.js';
import { createS3Media } from '../../../src/adapters/storage/s3-media.js';
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_SECRET_ACCESS_KEY, startS3, type TestS3 } from '../../support/s3-server.js';
import { createTempDir } from '../../support/temp-dir.js';

describe('S3 blog media', () => {
  let s3: TestS3;
  let temp: { dir: string; remove(): Promise<void> };
  before(async () => {
    [s3, temp] = await Promise.all([startS3(), createTempDir('s3-media')]);
  });
  after(async () => {
    await Promise.all([s3.close(), temp.remove()]);
  });
  const client = () => createS3Client({ endpoint: s3.endpoint, bucket: S3_BUCKET, region: 'us-east-1', accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY, pathStyle: true });

  it('writes, lists, reads and removes media/<folder>/<name>', async () => {
    const media = createS3Media(client());
    await media.write('trip', 'lake.png', Readable.from([Buffer.from('12345')]), 5);
    await media.write('trip', 'boat.png', Readable.from([Buffer.from('123')]), 3);
    await media.write('trip-2', 'other.png', Readable.from([Buffer.from('1')]), 1);
    assert.deepEqual(await s3.keys(), ['media/trip-2/other.png', 'media/trip/boat.png', 'media/trip/lake.png']);
    assert.deepEqual(await media.list('trip'), [
      { name: 'boat.png', bytes: 3 },
      { name: 'lake.png', bytes: 5 },
    ]);
    const read = await media.read('trip', 'lake.png');
    assert.ok(read && read.etag !== '');
    read.body.resume();
    assert.equal(await media.read('trip', 'none.png'), undefined);
    assert.equal(await media.read('..', 'lake.png'), undefined);
    assert.equal(await media.read('trip', '.hidden'), undefined);
    await assert.rejects(media.write('trip', 'a/b.png', Readable.from([Buffer.from('1')]), 1), /not a media name/);
    await assert.rejects(media.list('../attachments'), /not a media folder/);
    await media.remove('trip', 'lake.png');
    assert.deepEqual(await media.list('trip'), [{ name: 'boat.png', bytes: 3 }]);
  });

  it('is never swept as an attachment, even with an empty attachments prefix', async () => {
    const attachments = createS3Attachments(client(), '', temp.dir);
    const before = await s3.keys();
    assert.ok(before.some((key) => key.startsWith('media/')));
    assert.equal(await attachments.prune(Date.now() + 60_000), 0);
    assert.deepEqual(await s3.keys(), before);
  });
});
