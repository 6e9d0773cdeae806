// The INSTREAM framing of src/adapters/clamd/clamd-scanner.ts over a Unix socket: the command, length-prefixed
// chunks and the zero length that ends them; clamd's answers, and an error line taken as "could not scan".
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { it } from 'node:test';
import { createClamdScanner, parseAnswer } from '../../src/adapters/clamd/clamd-scanner.js';
import { withTempDir } from '../support/temp-dir.js';

/** A stand-in clamd on `path` that records what it received and answers `answer`. */
async function fakeClamd(path: string, answer: string): Promise<{ server: Server; received: Buffer[] }> {
  const received: Buffer[] = [];
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      if (all.subarray(-4).equals(Buffer.alloc(4))) {
        received.push(all);
        socket.end(answer);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { server, received };
}

it('sends INSTREAM chunks over a Unix socket and reads the verdict', async () => {
  await withTempDir('clamd-socket', async (dir) => {
    const path = join(dir, 'clamd.sock');
    const { server, received } = await fakeClamd(path, 'stream: OK\0');
    try {
      const result = await createClamdScanner({ path }).scan(Readable.from([Buffer.from('abc'), Buffer.from('de')]));
      assert.deepEqual(result, { clean: true });
      const expected = Buffer.concat([Buffer.from('zINSTREAM\0'), Buffer.from([0, 0, 0, 3]), Buffer.from('abc'), Buffer.from([0, 0, 0, 2]), Buffer.from('de'), Buffer.alloc(4)]);
      assert.deepEqual(received[0], expected);
    } finally {
      server.close();
    }
  });
});

it('reads clamd answers; anything but OK or FOUND is an error', () => {
  assert.deepEqual(parseAnswer('stream: Eicar-Test-Signature FOUND\0'), { clean: false, signature: 'Eicar-Test-Signature' });
  assert.throws(() => parseAnswer('INSTREAM size limit exceeded. ERROR\0'), /clamd answered/);
  assert.throws(() => parseAnswer(''), /clamd answered/);
});
