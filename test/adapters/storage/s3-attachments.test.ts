// The S3 attachment store (src/adapters/storage/) against s3rver: a file streamed in and back, a missing key, a
// write cut off midway leaving nothing (in the bucket or the spool), removal, keep_days' prune over a listing of
// more than one page and of a spooled file left by a stop, and an unknown access key refused with its error code.
import assert from 'node:assert/strict';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createS3Attachments } from '../../../src/adapters/storage/s3-attachments.js';
import { createS3Client } from '../../../src/adapters/storage/s3-client.js';
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_SECRET_ACCESS_KEY, startS3, type TestS3 } from '../../support/s3-server.js';
import { createTempDir } from '../../support/temp-dir.js';

const ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('S3 attachment store', () => {
  let s3: TestS3;
  let temp: { dir: string; remove(): Promise<void> };
  before(async () => {
    [s3, temp] = await Promise.all([startS3(), createTempDir('s3-attachments')]);
  });
  after(async () => {
    await Promise.all([s3.close(), temp.remove()]);
  });
  const clientWith = (accessKeyId = S3_ACCESS_KEY_ID) =>
    createS3Client({ endpoint: s3.endpoint, bucket: S3_BUCKET, region: 'us-east-1', accessKeyId, secretAccessKey: S3_SECRET_ACCESS_KEY, pathStyle: true });

  it('streams a file in and back, answers undefined for a missing one, and removes it', async () => {
    const store = createS3Attachments(clientWith(), 'files/', temp.dir);
    const content = Buffer.alloc(3 * 1024 * 1024, 0x61);
    await store.write(ID, Readable.from([content.subarray(0, 1024 * 1024), content.subarray(1024 * 1024)]));
    assert.deepEqual(await s3.keys(), [`files/${ID}`]);
    assert.deepEqual(await readAll((await store.read(ID))!), content);
    assert.equal(await store.read('B'.repeat(24)), undefined);
    assert.equal(await store.read('../../etc/passwd'), undefined);
    await store.remove(ID);
    assert.deepEqual(await s3.keys(), []);
  });

  it('keeps nothing of a write cut off midway', async () => {
    const store = createS3Attachments(clientWith(), 'files/', temp.dir);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('the client went away'));
      },
    });
    await assert.rejects(store.write(ID, failing), /went away/);
    assert.deepEqual(await s3.keys(), []);
    assert.deepEqual(await readdir(join(temp.dir, 'attachments', 'spool')), []);
  });

  it('prunes the files older than a time, over more than one page of the listing', async () => {
    const store = createS3Attachments(clientWith(), 'files/', temp.dir, 2);
    const ids = Array.from({ length: 5 }, (_unused, index) => `file${String(index).padStart(20, '0')}`);
    for (const id of ids) await store.write(id, Readable.from([Buffer.from(id)]));
    const pages = () => s3.requests.filter((request) => request.method === 'GET' && request.path.includes('max-keys=')).length;
    const listedBefore = pages();
    const leftOver = join(temp.dir, 'attachments', 'spool', 'C'.repeat(24) + '.part');
    await writeFile(leftOver, 'cut off by a stop');
    await utimes(leftOver, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    assert.equal(await store.prune(Date.now() - 60_000), 0, 'none is older than a minute');
    assert.deepEqual(await readdir(join(temp.dir, 'attachments', 'spool')), [], 'a spooled file left by a stop is removed');
    assert.equal(pages() - listedBefore, 3, 'five keys, two a page');
    assert.equal(await store.prune(Date.now() + 60_000), ids.length);
    assert.deepEqual(await s3.keys(), []);
  });

  it('rejects with the store\'s error code when the access key is unknown', async () => {
    const store = createS3Attachments(clientWith('NOBODY'), 'files/', temp.dir);
    await assert.rejects(store.write(ID, Readable.from([Buffer.from('x')])), /S3 PUT answered 403 \(InvalidAccessKeyId\)/);
  });
});
