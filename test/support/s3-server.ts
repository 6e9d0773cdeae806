// An S3-compatible server for tests: s3rver (npm), on 127.0.0.1 in a temp folder, with one bucket. It speaks the
// protocol (PUT, GET, DELETE, ListObjectsV2, errors as XML) and checks that the access key exists and that
// X-Amz-Content-Sha256 is well formed, but not the Signature V4 itself nor any ACL (docs/attachments.md
// "S3 storage"). Each request's method, path and headers are recorded, so a test can check what was sent.
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createRequire } from 'node:module';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { createTempDir } from './temp-dir.js';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** s3rver's one account. */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';
export const S3_BUCKET = 'postbox-test';

export interface TestS3 {
  endpoint: string;
  /** The `[storage]` table for this server. */
  storage: Record<string, string | boolean>;
  /** The keys in the bucket, sorted. */
  keys(): Promise<string[]>;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export async function startS3(): Promise<TestS3> {
  const temp = await createTempDir('s3');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: temp.dir, configureBuckets: [{ name: S3_BUCKET }] });
  const { port } = await server.run();
  const requests: TestS3['requests'] = [];
  server.httpServer.prependListener('request', (request) => requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers }));
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    storage: { kind: 's3', endpoint, bucket: S3_BUCKET, region: 'us-east-1', access_key_id: S3_ACCESS_KEY_ID, secret_access_key: S3_SECRET_ACCESS_KEY, path_style: true },
    async keys() {
      const bucket = join(temp.dir, S3_BUCKET);
      const entries = await readdir(bucket, { recursive: true }).catch(() => [] as string[]);
      return entries
        .filter((entry) => entry.endsWith('._S3rver_object'))
        .map((entry) => relative('.', entry).slice(0, -'._S3rver_object'.length))
        .sort();
    },
    requests,
    async close() {
      await server.close();
      await temp.remove();
    },
  };
}
