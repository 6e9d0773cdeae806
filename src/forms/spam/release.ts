// "Not spam" (docs/spam.md "Quarantine"): a person's decision delivers a quarantined submission now, the way an
// accepted one is delivered (archived when the form keeps an archive, then its mails queued; a newsletter sign-up
// gets its confirmation mail), and takes it out of the quarantine. Two clicks at once deliver it once; a failed
// delivery leaves it in the quarantine.
import type { FormConfig } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Submission } from '../rules/submission.js';
import type { SubmitOutcome } from '../submit-flow.js';
import type { QuarantinedSubmission, SpamStore } from './quarantine.js';

/** A claim older than this is taken for a crash mid-release, and the entry may be released again. */
export const RELEASE_STALE_MS = 10 * 60 * 1000;

export type ReleaseOutcome = 'released' | 'gone' | 'failed';

export interface SpamReleaseDeps {
  store: SpamStore;
  formOf(path: string): FormConfig | undefined;
  /** The form's accepted path (submit-flow.ts `createAcceptedPath`): the archive and delivery, or the sign-up. */
  acceptedPathOf(form: FormConfig): (submission: Submission, receivedAt: string) => Promise<SubmitOutcome>;
  logger: Logger;
  clock(): number;
}

export function createSpamRelease(deps: SpamReleaseDeps): (id: string, by: string) => Promise<ReleaseOutcome> {
  return async function release(id, by) {
    const claim = await deps.store.claim(id, deps.clock(), RELEASE_STALE_MS);
    if (claim.kind === 'gone') return 'gone';
    const { entry } = claim;
    let outcome: 'accepted' | 'failed';
    try {
      outcome = await deliver(entry);
    } catch (error) {
      deps.logger.error({ event: 'spam_release_failed', form: entry.form, reason: safeReason(error) }, 'a submission marked "not spam" could not be delivered');
      outcome = 'failed';
    }
    if (outcome === 'failed') {
      await deps.store.unclaim(id);
      return 'failed';
    }
    await deps.store.released(id, deps.clock());
    deps.logger.info({ event: 'spam_released', form: entry.form, by }, 'a quarantined submission was marked "not spam" and delivered');
    return 'released';
  };

  async function deliver(entry: QuarantinedSubmission): Promise<'accepted' | 'failed'> {
    const form = deps.formOf(entry.form);
    // A form removed from the config since: nothing to deliver it through; it stays for the owner to read.
    if (!form) return 'failed';
    const outcome = await deps.acceptedPathOf(form)(entry.submission, entry.receivedAt);
    return outcome.kind === 'accepted' ? 'accepted' : 'failed';
  }
}
