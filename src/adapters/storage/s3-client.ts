// The few S3 operations Postbox needs (docs/attachments.md "S3 storage"), over any S3-compatible endpoint:
// requests signed with AWS Signature Version 4 by aws4fetch's signer and sent with node:http(s), so a body streams
// from a file with its Content-Length (a plain body, never aws-chunked) and a download streams back unbuffered.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { AwsV4Signer } from 'aws4fetch';
import { load } from 'cheerio';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<host>/<key>`. */
  pathStyle: boolean;
}

export interface S3Object {
  key: string;
  /** Milliseconds since the epoch. */
  lastModified: number;
  bytes: number;
}

const TIMEOUT_MS = 60_000;

export function createS3Client(settings: S3Settings) {
  const base = new URL(settings.endpoint);
  const urlOf = (key: string, query?: URLSearchParams): URL => {
    const url = new URL(base);
    const encodedKey = key.split('/').map(encodeURIComponent).join('/');
    if (settings.pathStyle) url.pathname = `${base.pathname.replace(/\/+$/, '')}/${settings.bucket}/${encodedKey}`;
    else {
      url.hostname = `${settings.bucket}.${base.hostname}`;
      url.pathname = `/${encodedKey}`;
    }
    if (query) url.search = query.toString();
    return url;
  };

  /** Sends one signed request; `body` streams with `contentLength`. Resolves with the response, its body unread. */
  async function send(method: string, url: URL, body?: { stream: Readable; contentLength: number }): Promise<IncomingMessage> {
    const headers: Record<string, string> = body ? { 'content-length': String(body.contentLength) } : {};
    const signed = await new AwsV4Signer({
      method,
      url: url.toString(),
      headers,
      service: 's3',
      region: settings.region,
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    }).sign();
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers: Object.fromEntries(signed.headers.entries()), timeout: TIMEOUT_MS });
    return new Promise((resolve, reject) => {
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.once('timeout', () => outgoing.destroy(new Error('the S3 store did not answer in time')));
      if (body === undefined) outgoing.end();
      else {
        body.stream.once('error', (error) => outgoing.destroy(error));
        body.stream.pipe(outgoing);
      }
    });
  }

  /** A status other than `expected` as an error naming the operation and the store's error code, never the key. */
  async function failure(operation: string, response: IncomingMessage): Promise<Error> {
    const text = await readText(response).catch(() => '');
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1] ?? 'no code';
    return new Error(`S3 ${operation} answered ${response.statusCode} (${code})`);
  }

  return {
    async put(key: string, stream: Readable, contentLength: number): Promise<void> {
      const response = await send('PUT', urlOf(key), { stream, contentLength });
      if (response.statusCode !== 200) throw await failure('PUT', response);
      response.resume();
    },
    /** The object's bytes (its headers, `etag` among them, on the response), or undefined when there is no such key. */
    async get(key: string): Promise<IncomingMessage | undefined> {
      const response = await send('GET', urlOf(key));
      if (response.statusCode === 404) {
        response.resume();
        return undefined;
      }
      if (response.statusCode !== 200) throw await failure('GET', response);
      return response;
    },
    async delete(key: string): Promise<void> {
      const response = await send('DELETE', urlOf(key));
      // S3 answers 204 whether or not the key was there.
      if (response.statusCode !== 204 && response.statusCode !== 200 && response.statusCode !== 404) throw await failure('DELETE', response);
      response.resume();
    },
    /**
     * Every object under `prefix`, `pageSize` keys a request: ListObjects (version 1), the next page from the last
     * key seen (`marker`). Every S3-compatible store takes it, and it needs no continuation token (docs/attachments.md
     * "S3 storage").
     */
    async *list(prefix: string, pageSize = 1000): AsyncIterable<S3Object> {
      let marker: string | undefined;
      for (;;) {
        const query = new URLSearchParams({ 'max-keys': String(pageSize), prefix, ...(marker === undefined ? {} : { marker }) });
        const response = await send('GET', urlOf('', query));
        if (response.statusCode !== 200) throw await failure('ListObjects', response);
        const page = load(await readText(response), { xml: true });
        const objects = page('Contents')
          .toArray()
          .map((element) => ({
            key: page(element).children('Key').text(),
            lastModified: Date.parse(page(element).children('LastModified').text()),
            bytes: Number(page(element).children('Size').text()),
          }));
        yield* objects;
        if (page('IsTruncated').first().text() !== 'true' || objects.length === 0) return;
        marker = objects[objects.length - 1]!.key;
      }
    },
  };
}

export type S3Client = ReturnType<typeof createS3Client>;

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
