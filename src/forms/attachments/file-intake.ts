// The files of a multipart body (docs/attachments.md "Limits"): each streamed to storage as it arrives, its
// type sniffed from its first bytes and its size counted on the way. The first file over a limit decides the
// outcome; the caller then removes every file of the body, so nothing of a refused body is kept.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { AttachmentStore, StoredAttachment } from './attachment-store.js';
import { isTypeAccepted, SNIFF_BYTES, sniffType } from './sniff.js';

/** What a form takes, and where its files go. */
export interface AttachmentIntake {
  maxFiles: number;
  maxBytes: number;
  types: readonly string[];
  store: Pick<AttachmentStore, 'write' | 'remove'>;
  /** A new random id for a file. */
  createId(): string;
}

/**
 * Why the files of a body were refused: 413 for a file too large, 500 when storage did not take one, 400 validation
 * otherwise; `field` names the input.
 */
export type FileRefusal = { status: 413 | 400 | 500; field: string; message: string };

/** Collects the files of one body. */
export function createFileCollector(intake: AttachmentIntake) {
  const files: StoredAttachment[] = [];
  const writes: Promise<unknown>[] = [];
  let refusal: FileRefusal | undefined;
  const refuse = (next: FileRefusal) => {
    refusal ??= next;
  };
  return {
    /** busboy's "file" event: `field` is the input's name. */
    take(field: string, file: Readable, filename: string | undefined): void {
      // A file input left empty is sent with an empty name and no bytes.
      if (refusal !== undefined || !filename) {
        file.resume();
        return;
      }
      if (files.length >= intake.maxFiles) {
        refuse({ status: 400, field: 'attachments', message: `At most ${intake.maxFiles} files are accepted.` });
        file.resume();
        return;
      }
      const stored: StoredAttachment = { id: intake.createId(), field, filename: filename.slice(0, 255), type: '', size: 0 };
      files.push(stored);
      const gate = createTypeGate(stored, intake.types, () => refuse({ status: 400, field, message: 'This type of file is not accepted.' }));
      file.once('limit', () => {
        refuse({ status: 413, field, message: `Each file must not exceed ${intake.maxBytes} bytes.` });
        gate.destroy(new Error('file too large'));
      });
      gate.once('error', () => {
        file.unpipe(gate);
        file.resume();
      });
      // A limit or type refusal came first when the write failed because of it; otherwise storage failed.
      writes.push(intake.store.write(stored.id, file.pipe(gate)).catch(() => refuse({ status: 500, field, message: 'The file could not be kept.' })));
    },
    /** Waits for every write; the files when all were taken, else the refusal (their files removed). */
    async finish(): Promise<{ ok: true; files: StoredAttachment[] } | { ok: false; refusal: FileRefusal }> {
      await Promise.all(writes);
      if (refusal === undefined) return { ok: true, files };
      await this.discard();
      return { ok: false, refusal };
    },
    /** Removes every file of the body (a refused body keeps nothing). */
    async discard(): Promise<void> {
      await Promise.all(writes);
      await Promise.all(files.map((file) => intake.store.remove(file.id).catch(() => {})));
    },
  };
}

/** Passes the bytes on once the first SNIFF_BYTES of them show an accepted type; counts them. */
function createTypeGate(stored: StoredAttachment, types: readonly string[], onRefused: () => void): Transform {
  let head: Buffer[] = [];
  let headLength = 0;
  let decided = false;
  const decide = (complete: boolean): Error | undefined => {
    decided = true;
    const type = sniffType(Buffer.concat(head), complete);
    if (type === undefined || !isTypeAccepted(type, types)) {
      onRefused();
      return new Error('type not accepted');
    }
    stored.type = type;
    return undefined;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      stored.size += chunk.length;
      if (decided) return callback(null, chunk);
      head.push(chunk);
      headLength += chunk.length;
      if (headLength < SNIFF_BYTES) return callback();
      const error = decide(false);
      const buffered = Buffer.concat(head);
      head = [];
      return error ? callback(error) : callback(null, buffered);
    },
    flush(callback: TransformCallback) {
      if (decided) return callback();
      const error = decide(true);
      return error ? callback(error) : callback(null, Buffer.concat(head));
    },
  });
}
