// The spam checks of one form, in one place (docs/spam.md): proof of work and its time trap, the content rules, and
// the optional captcha. It returns a verdict; the submit flow decides what a verdict does (quarantine or reject).
import type { FormConfig } from '../../config/config.js';
import type { Submission } from '../rules/submission.js';
import { CAPTCHA_PROVIDERS, verifyCaptcha, type Fetch } from './captcha.js';
import { createContentRules } from './content-rules.js';
import { createProofOfWork, type ChallengeLedger, type ProofOfWork, type ProofOfWorkSettings } from './proof-of-work.js';
import type { SpamVerdict } from './spam-reasons.js';

/** The form field the ALTCHA widget fills with its solution. */
export const ALTCHA_FIELD = 'altcha';

export interface SpamCheckDeps {
  ledger: ChallengeLedger;
  /** The challenges' HMAC keys, the same on every replica. */
  secrets: ProofOfWorkSettings['secrets'];
  fetch: Fetch;
  /** The captcha provider's verify URL; tests point it at a server of their own. */
  captchaVerifyUrl?: string;
}

export interface SpamCheck {
  /** The form's proof of work, when `proof_of_work` is on: `GET <form>/challenge` issues its challenges. */
  proofOfWork: ProofOfWork | undefined;
  /** Whether any rule is on; a form without rules skips the checks. */
  enabled: boolean;
  check(fields: Readonly<Record<string, unknown>>, submission: Submission, clientAddress: string, now: number): Promise<SpamVerdict>;
}

const CLEAN: SpamVerdict = Object.freeze({ reasons: [], captchaUnreachable: false }) as SpamVerdict;

export function createSpamCheck(form: Pick<FormConfig, 'path' | 'spam'>, deps: SpamCheckDeps): SpamCheck {
  const { spam } = form;
  const proofOfWork = spam.proof_of_work
    ? createProofOfWork({ form: form.path, minSeconds: spam.min_seconds, expiresSeconds: spam.challenge_expires_seconds, secrets: deps.secrets }, deps.ledger)
    : undefined;
  const contentRules = createContentRules(spam);
  const captcha = spam.captcha && { ...spam.captcha, verifyUrl: deps.captchaVerifyUrl };
  const enabled =
    proofOfWork !== undefined || captcha !== undefined || spam.max_links !== undefined || spam.block_disposable || spam.languages !== undefined || spam.blocked_words.length > 0;
  return {
    proofOfWork,
    enabled,
    async check(fields, submission, clientAddress, now) {
      if (!enabled) return CLEAN;
      // The content rules first: they cost nothing. Proof of work then spends its challenge whatever they found,
      // so a solution cannot be tried again with other content.
      const reasons = contentRules(submission);
      if (proofOfWork) {
        const reason = await proofOfWork.check(fields[ALTCHA_FIELD], now);
        if (reason) reasons.unshift(reason);
      }
      let captchaUnreachable = false;
      if (captcha) {
        const result = await verifyCaptcha(captcha, fields[CAPTCHA_PROVIDERS[captcha.provider].field], clientAddress, deps.fetch);
        if (result !== 'passed') reasons.push('captcha');
        captchaUnreachable = result === 'unreachable';
      }
      return reasons.length === 0 ? CLEAN : { reasons, captchaUnreachable };
    },
  };
}
