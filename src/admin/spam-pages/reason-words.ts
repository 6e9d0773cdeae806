// Why a submission was taken for spam, in words a person deciding "Not spam" reads (docs/spam.md "Reasons"): one
// sentence per reason code. A code this table does not know (written by a newer Postbox) is shown as it is.
import type { SpamReason } from '../../forms/spam/spam-reasons.js';

const REASON_WORDS: Record<SpamReason, string> = {
  proof_of_work: 'no valid proof of work',
  replayed: 'proof of work used before',
  too_fast: 'sent too soon after the form was loaded',
  expired: 'proof of work expired before it was sent',
  links: 'more links than the form allows',
  disposable: 'the address is at a disposable mail domain',
  language: 'the message reads as none of the form’s languages',
  words: 'a blocked word or phrase',
  captcha: 'the captcha was missing or failed, or its provider could not be asked',
  virus: 'a file was found infected by the virus scanner (the file was removed)',
};

/** The sentence for `reason`. */
export function reasonWords(reason: string): string {
  return Object.hasOwn(REASON_WORDS, reason) ? REASON_WORDS[reason as SpamReason] : reason;
}
