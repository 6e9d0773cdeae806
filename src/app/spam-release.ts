// "Not spam" for /admin (docs/spam.md "Quarantine"): the release of a quarantined submission over the backend's
// quarantine and the mail core, through the same accepted path as a submission that passed the checks.
import type { Backend } from '../adapters/backend.js';
import type { Config } from '../config/config.js';
import { createAcceptedPath } from '../forms/submit-flow.js';
import { createLinker, scanBeforeAccepting } from '../forms/attachment-parts.js';
import { createScanGate } from '../forms/attachments/scan-gate.js';
import { createClamdScanner } from '../adapters/clamd/clamd-scanner.js';
import { parseClamdAddress } from '../config/attachments.js';
import { createAttachmentStoreOf, takesAttachments } from './attachment-storage.js';
import { createSpamRelease, type ReleaseOutcome } from '../forms/spam/release.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { Submission } from '../forms/rules/submission.js';
import type { MailCore } from './mail-core.js';

export type SpamRelease = (id: string, by: string) => Promise<ReleaseOutcome>;

export function composeSpamRelease(config: Config, backend: Pick<Backend, 'spam' | 'archives' | 'newsletter'>, core: MailCore, logger: Logger, clock: Clock): SpamRelease {
  const forms = new Map(config.forms.map((form) => [form.path, form]));
  // docs/attachments.md "Virus scan": a quarantined submission's kept files are scanned before the release links them.
  const files = takesAttachments(config) ? createAttachmentStoreOf(config) : undefined;
  const scanner = config.storage.clamd === undefined ? undefined : createClamdScanner(parseClamdAddress(config.storage.clamd));
  const linkAttachments = createLinker(config.server.public_url, async () => `attachments:${await backend.newsletter.secret()}`, clock);
  const accepted = new Map(
    config.forms.map((form) => {
      const accept = createAcceptedPath(form, { metrics: core.metrics, logger, newsletter: core.newsletter, archives: backend.archives, deliver: core.deliver, linkAttachments });
      if (files === undefined || form.type === 'newsletter' || form.attachments === undefined) return [form.path, accept];
      const gate = createScanGate({ store: files, held: files.held, logger, scanner: form.attachments.scan ? scanner : undefined });
      const quarantineVirus = (record: { receivedAt: string; submission: Submission }) => backend.spam.quarantine({ form: form.path, receivedAt: record.receivedAt, reasons: ['virus'], submission: record.submission });
      return [form.path, scanBeforeAccepting(form.path, gate, accept, quarantineVirus)];
    }),
  );
  return createSpamRelease({
    store: backend.spam,
    formOf: (path) => forms.get(path),
    acceptedPathOf: (form) => accepted.get(form.path)!,
    logger,
    clock,
  });
}
