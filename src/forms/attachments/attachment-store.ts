// Where the files of submissions are kept (docs/attachments.md "Storage"), the daemon that scans them, and what a
// submission remembers of each: the interfaces the forms service works through; adapters implement them.
import type { Readable } from 'node:stream';

/** A file received with a submission, as the submission keeps it. */
export interface StoredAttachment {
  /** Random, unguessable: the file's name in storage and in its link. */
  id: string;
  /** The form field it came in. */
  field: string;
  /** The name the client gave, for the download's Content-Disposition only. */
  filename: string;
  /** The sniffed MIME type (sniff.ts), never the declared one. */
  type: string;
  size: number;
  /** Set on the files of a virus quarantine: removed at once, never to be linked or scanned again. */
  removed?: true;
}

export interface AttachmentStore {
  /** Writes `content` as `id`, streaming; rejects (leaving nothing) when the stream fails. */
  write(id: string, content: Readable): Promise<void>;
  /** The file's bytes, or undefined when it is gone. */
  read(id: string): Promise<Readable | undefined>;
  remove(id: string): Promise<void>;
  /** Removes files older than `before` (milliseconds since the epoch); how many went. */
  prune(before: number): Promise<number>;
}

export type ScanResult = { clean: true } | { clean: false; signature: string };

/** A virus scanner; rejects when it cannot be asked (the file is then held, docs/attachments.md "Virus scan"). */
export interface VirusScanner {
  scan(content: Readable): Promise<ScanResult>;
}

/** Submissions whose files could not be scanned yet, kept until the scanner answers. */
export interface HeldSubmissions {
  hold(id: string, record: unknown): Promise<void>;
  list(): Promise<Array<{ id: string; record: unknown }>>;
  release(id: string): Promise<void>;
}
