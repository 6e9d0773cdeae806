// Whether a failure a provider reports is hard or soft (docs/bounces.md "Where bounces come from"): judged by the
// same rules as a bounce read from the mailbox (src/bounces/failure-rules.ts), from the enhanced status code, the
// SMTP reply code and the words of the reply the provider passes on. Only a report that carries none of them is
// left to the provider's own judgement (an SES `Permanent` bounce without a diagnostic is hard).
import { failureKind as judgeFailure, replyCodesIn, statusCodesIn, type FailureKind } from '../failure-rules.js';

export type { FailureKind };

/** The first enhanced status code ("5.1.1") in `text`. */
export function enhancedStatusIn(text: string | undefined): string | undefined {
  return text === undefined ? undefined : statusCodesIn(text)[0];
}

/**
 * The kind of a failure from what the receiving server said: `status` (an enhanced status code), `code` (the
 * basic SMTP reply code) and `text` (the reply), with the codes found in the text added; `fallback` when there is
 * nothing to judge.
 */
export function failureKind(input: { status?: string | undefined; text?: string | undefined; code?: number | undefined }, fallback: FailureKind): FailureKind {
  const text = input.text ?? '';
  const statuses = [...new Set([...(input.status !== undefined ? statusCodesIn(input.status) : []), ...statusCodesIn(text)])];
  const replies = [...new Set([...(input.code !== undefined && input.code >= 400 && input.code < 600 ? [input.code] : []), ...replyCodesIn(text)])];
  if (statuses.length === 0 && replies.length === 0 && text.trim() === '') return fallback;
  return judgeFailure({ statuses, replies, text, delayed: false });
}
