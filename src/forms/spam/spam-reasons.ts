// Why a submission was taken for spam (docs/spam.md "Reasons"): each reason has its own counter, `spam_<reason>`,
// and is kept with the quarantined submission so that a person deciding sees why.

// `virus`: a file of the submission was found infected (docs/attachments.md "Virus scan").
export const SPAM_REASONS = ['proof_of_work', 'replayed', 'too_fast', 'expired', 'links', 'disposable', 'language', 'words', 'captcha', 'virus'] as const;

export type SpamReason = (typeof SPAM_REASONS)[number];

/** What the spam checks found: no reasons means the submission goes on. */
export interface SpamVerdict {
  reasons: SpamReason[];
  /**
   * The third-party captcha could not be asked: the submission is quarantined even on a form whose action is
   * "reject", so that an outage elsewhere never costs a visitor's message.
   */
  captchaUnreachable: boolean;
}
