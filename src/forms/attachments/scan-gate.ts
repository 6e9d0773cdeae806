// The virus scan between a submission's files and any link to them (docs/attachments.md "Virus scan"): every file
// is read back from storage and sent to the scanner. An infected file quarantines the submission with reason
// `virus` and its files are removed; a scanner that cannot be asked holds the submission, which `retryHeld` takes
// up again later: nothing is delivered unscanned.
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Submission } from '../rules/submission.js';
import type { AttachmentStore, HeldSubmissions, StoredAttachment, VirusScanner } from './attachment-store.js';

export type ScanOutcome = { kind: 'clean' } | { kind: 'infected'; signature: string } | { kind: 'unreachable'; reason: string };

/** A submission waiting for the scanner. */
export interface HeldRecord {
  form: string;
  receivedAt: string;
  submission: Submission;
}

export interface ScanGateDeps {
  store: AttachmentStore;
  /** Undefined with `scan = false`: files are delivered unscanned. */
  scanner: VirusScanner | undefined;
  held: HeldSubmissions;
  logger: Logger;
}

/** What happens to a scanned submission: its form's accepted path, or the quarantine. */
export interface ScanGateSinks {
  accept(record: HeldRecord): Promise<unknown>;
  quarantineVirus(record: HeldRecord): Promise<unknown>;
}

export function createScanGate(deps: ScanGateDeps) {
  const { store, scanner, held, logger } = deps;

  async function scanAll(files: readonly StoredAttachment[]): Promise<ScanOutcome> {
    if (scanner === undefined) return { kind: 'clean' };
    for (const file of files.filter((kept) => !kept.removed)) {
      // Storage that cannot be read (an S3 store down) holds the submission like a scanner that cannot be asked.
      const content = await store.read(file.id).catch((error: unknown) => error as Error);
      if (content instanceof Error) return { kind: 'unreachable', reason: safeReason(content) };
      if (content === undefined) return { kind: 'unreachable', reason: 'file missing' };
      try {
        const result = await scanner.scan(content);
        if (!result.clean) return { kind: 'infected', signature: result.signature };
      } catch (error) {
        content.destroy();
        return { kind: 'unreachable', reason: safeReason(error) };
      }
    }
    return { kind: 'clean' };
  }

  async function removeFiles(files: readonly StoredAttachment[]): Promise<void> {
    await Promise.all(files.filter((file) => !file.removed).map((file) => store.remove(file.id).catch(() => {})));
  }

  /** Scans the record's files, then accepts, quarantines or holds it; 'held' when the scanner could not be asked. */
  async function pass(record: HeldRecord, sinks: ScanGateSinks): Promise<'accepted' | 'infected' | 'held'> {
    const files = record.submission.attachments ?? [];
    const outcome = await scanAll(files);
    if (outcome.kind === 'unreachable') {
      logger.warn({ event: 'attachment_scan_unavailable', form: record.form, reason: outcome.reason }, 'virus scanner unreachable: submission held');
      return 'held';
    }
    if (outcome.kind === 'infected') {
      logger.warn({ event: 'attachment_infected', form: record.form, signature: outcome.signature }, 'infected attachment: submission quarantined');
      await removeFiles(files);
      // The quarantine keeps the files' names, marked removed: "Not spam" never links them.
      await sinks.quarantineVirus({ ...record, submission: { ...record.submission, attachments: files.map((file) => ({ ...file, removed: true as const })) } });
      return 'infected';
    }
    await sinks.accept(record);
    return 'accepted';
  }

  return {
    pass,
    removeFiles,
    /** Keeps `record` until the scanner answers. */
    hold: (id: string, record: HeldRecord) => held.hold(id, record),
    /** Takes up every held submission in turn; stops at the first the scanner still cannot take. */
    async retryHeld(sinksOf: (form: string) => ScanGateSinks | undefined): Promise<void> {
      for (const { id, record } of await held.list()) {
        const heldRecord = record as HeldRecord;
        const sinks = sinksOf(heldRecord.form);
        if (sinks === undefined) continue;
        if ((await pass(heldRecord, sinks)) === 'held') return;
        await held.release(id);
      }
    },
  };
}

export type ScanGate = ReturnType<typeof createScanGate>;
