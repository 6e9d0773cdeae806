// A VirusScanner over clamd's INSTREAM command (clamd(8) "INSTREAM"): the file is sent in length-prefixed chunks
// on one connection, a zero length ends it, and clamd answers "stream: OK" or "stream: <signature> FOUND".
// Anything else (no connection, an error line, a timeout) rejects: the caller holds the file (fail closed).
import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { ClamdAddress } from '../../config/attachments.js';
import type { ScanResult, VirusScanner } from '../../forms/attachments/attachment-store.js';

const TIMEOUT_MS = 60_000;

export function createClamdScanner(address: ClamdAddress): VirusScanner {
  return {
    async scan(content) {
      const socket = 'path' in address ? connect(address.path) : connect(address.port, address.host);
      socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('clamd did not answer in time')));
      const answer = readAnswer(socket);
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('error', reject);
        });
        socket.write('zINSTREAM\0');
        for await (const chunk of content as AsyncIterable<Buffer>) {
          const length = Buffer.alloc(4);
          length.writeUInt32BE(chunk.length);
          if (!socket.write(Buffer.concat([length, chunk]))) await new Promise((resolve) => socket.once('drain', resolve));
        }
        socket.end(Buffer.alloc(4));
        return parseAnswer(await answer);
      } finally {
        socket.destroy();
        answer.catch(() => {});
      }
    },
  };
}

function readAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** "stream: OK", "stream: Eicar-Test-Signature FOUND"; anything else is an error. */
export function parseAnswer(answer: string): ScanResult {
  const line = answer.replace(/\0+$/, '').trim();
  if (line === 'stream: OK') return { clean: true };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found) return { clean: false, signature: found[1] as string };
  throw new Error(`clamd answered: ${line.slice(0, 200) || '(nothing)'}`);
}
