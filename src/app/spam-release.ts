// "Not spam" for /admin (docs/spam.md "Quarantine"): the release of a quarantined submission over the backend's
// quarantine and the mail core, through the same accepted path as a submission that passed the checks.
import type { Backend } from '../adapters/backend.js';
import type { Config } from '../config/config.js';
import { createAcceptedPath } from '../forms/submit-flow.js';
import { createSpamRelease, type ReleaseOutcome } from '../forms/spam/release.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { MailCore } from './mail-core.js';

export type SpamRelease = (id: string, by: string) => Promise<ReleaseOutcome>;

export function composeSpamRelease(config: Config, backend: Pick<Backend, 'spam' | 'archives'>, core: MailCore, logger: Logger, clock: Clock): SpamRelease {
  const forms = new Map(config.forms.map((form) => [form.path, form]));
  const accepted = new Map(
    config.forms.map((form) => [form.path, createAcceptedPath(form, { metrics: core.metrics, logger, newsletter: core.newsletter, archives: backend.archives, deliver: core.deliver })]),
  );
  return createSpamRelease({
    store: backend.spam,
    formOf: (path) => forms.get(path),
    acceptedPathOf: (form) => accepted.get(form.path)!,
    logger,
    clock,
  });
}
