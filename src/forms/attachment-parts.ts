// The attachment parts of the forms service (docs/attachments.md): each form's intake and scan gate, the signed
// links of the owner mail, the download route, and the sweep that retries held submissions and removes files
// older than keep_days.
import { randomBytes } from 'node:crypto';
import type { FormConfig } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { Clock, Timers } from '../ports.js';
import type { Route } from '../http/route-table.js';
import type { AttachmentLink } from './notifications.js';
import type { SpamStore } from './spam/quarantine.js';
import { createAcceptedPath, type AcceptedPathDeps, type SubmitFlowDeps, type SubmitOutcome } from './submit-flow.js';
import type { Submission } from './rules/submission.js';
import type { AttachmentStore, HeldSubmissions, StoredAttachment, VirusScanner } from './attachments/attachment-store.js';
import { createDownloadRoute } from './attachments/download-route.js';
import { createAttachmentLink } from './attachments/links.js';
import { createScanGate, type HeldRecord, type ScanGate, type ScanGateSinks } from './attachments/scan-gate.js';

const DAY_MS = 86_400_000;

/** What the composition root hands in. */
export interface AttachmentDeps {
  store: AttachmentStore & { held: HeldSubmissions };
  /** clamd, when `[storage] clamd` is set. */
  scanner: VirusScanner | undefined;
  /** The install's secret, which signs the links. */
  secret(): Promise<string>;
  /** Held submissions are tried again every RETRY_INTERVAL_MS on these. */
  timers: Timers;
}

/** How often held submissions are tried again (docs/attachments.md "Virus scan"). */
export const RETRY_INTERVAL_MS = 60_000;

type ServiceParts = AcceptedPathDeps & { logger: Logger; clock: Clock; spamStore: Pick<SpamStore, 'quarantine'> };

export function createAttachmentParts(forms: readonly FormConfig[], publicUrl: string | undefined, deps: AttachmentDeps, parts: ServiceParts) {
  const { store, timers } = deps;
  const createId = () => randomBytes(18).toString('base64url');
  const withFiles = forms.filter((form) => form.type !== 'newsletter' && form.attachments !== undefined);
  const gateOf = (form: FormConfig) =>
    createScanGate({ store, held: store.held, logger: parts.logger, scanner: form.type !== 'newsletter' && form.attachments?.scan === false ? undefined : deps.scanner });
  const gates = new Map(withFiles.map((form) => [form.path, gateOf(form)]));
  const linkAttachments = createLinker(publicUrl, deps.secret, parts.clock);
  const acceptedPaths = new Map(withFiles.map((form) => [form.path, createAcceptedPath(form, { ...parts, linkAttachments })]));
  const sinksOf = (path: string): ScanGateSinks | undefined => {
    const accept = acceptedPaths.get(path);
    if (accept === undefined) return undefined;
    return {
      accept: (record) => accept(record.submission, record.receivedAt),
      quarantineVirus: (record) => parts.spamStore.quarantine({ form: path, receivedAt: record.receivedAt, reasons: ['virus'], submission: record.submission }),
    };
  };
  const keepDays = Math.max(0, ...withFiles.map((form) => (form.type !== 'newsletter' && form.attachments?.keep_days) || form.spam_keep_days));
  let handle: unknown;
  let stopped = false;
  const sweep = async () => {
    try {
      const retryGate = deps.scanner && createScanGate({ store, held: store.held, logger: parts.logger, scanner: deps.scanner });
      await retryGate?.retryHeld(sinksOf);
      if (keepDays > 0) await store.prune(parts.clock() - keepDays * DAY_MS);
    } catch (error) {
      parts.logger.error({ event: 'attachment_sweep_failed', reason: safeReason(error) }, 'attachment sweep failed');
    }
    if (!stopped) handle = timers.setTimeout(() => void sweep(), RETRY_INTERVAL_MS);
  };
  handle = timers.setTimeout(() => void sweep(), RETRY_INTERVAL_MS);

  return {
    linkAttachments,
    downloadRoute: createDownloadRoute(store, deps.secret, parts.clock) as Route,
    flowPartsOf(form: FormConfig): SubmitFlowDeps['attachments'] {
      const gate = gates.get(form.path);
      if (gate === undefined || form.type === 'newsletter' || form.attachments === undefined) return undefined;
      const { max_files: maxFiles, max_bytes: maxBytes, types } = form.attachments;
      return { gate, createId, intake: { maxFiles, maxBytes, types, store, createId } };
    },
    stop() {
      stopped = true;
      timers.clearTimeout(handle);
    },
  };
}

type AcceptFn = (submission: Submission, receivedAt: string) => Promise<SubmitOutcome>;

/**
 * "Not spam" on a submission whose files the quarantine kept unscanned: they go through the scan gate first, as a
 * new submission's do (docs/attachments.md "Virus scan"). Infected: quarantined anew with reason `virus`; clamd
 * unreachable: refused as unavailable, so the entry stays in the quarantine for a later try.
 */
export function scanBeforeAccepting(form: string, gate: ScanGate, accept: AcceptFn, quarantineVirus: (record: HeldRecord) => Promise<unknown>): AcceptFn {
  return async (submission, receivedAt) => {
    if (!(submission.attachments ?? []).some((file) => !file.removed)) return accept(submission, receivedAt);
    let outcome: SubmitOutcome = { kind: 'accepted' };
    const sinks: ScanGateSinks = { accept: async (record) => (outcome = await accept(record.submission, record.receivedAt)), quarantineVirus };
    const passed = await gate.pass({ form, receivedAt, submission }, sinks);
    return passed === 'held' ? { kind: 'refused', code: 'unavailable' } : outcome;
  };
}

/** The signed links of `files`, removed ones left out; without public_url a link is relative (the owner still sees which files came). */
export function createLinker(publicUrl: string | undefined, secret: () => Promise<string>, clock: Clock) {
  return async (files: readonly StoredAttachment[]): Promise<AttachmentLink[]> => {
    const key = await secret();
    return files.filter((file) => !file.removed).map((file) => ({ filename: file.filename, type: file.type, size: file.size, url: createAttachmentLink(publicUrl ?? '', key, file, clock()) }));
  };
}
