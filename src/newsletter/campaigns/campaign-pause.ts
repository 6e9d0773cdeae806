// When a campaign pauses itself (docs/bounces.md "Suppression"; docs/newsletter.md "Sending a post"): once more than
// 0.3 % of its sent mails drew a complaint, or more than 5 % bounced hard, counted from its start or its last
// resume and only once 100 mails were sent since (a handful of early bounces says little). Mail providers block
// senders well before such rates; pausing keeps the rest of the list, and the sender's name, out of harm.
// Pure: counts in, a reason out; integer arithmetic, so that a rate exactly at the bound does not pause.
import type { BounceCounts } from './campaign.js';

/** Mails sent since the start or the last resume before the rates count. */
export const PAUSE_AFTER_SENT = 100;
/** 0.3 %: complaints per thousand mails sent, at most. */
const COMPLAINTS_PER_THOUSAND = 3;
/** 5 %: hard bounces per hundred mails sent, at most. */
const HARD_BOUNCES_PER_HUNDRED = 5;

/** Why a campaign at `now` pauses, counted from `since` (its last resume); undefined when it goes on. */
export function pauseReasonOf(now: BounceCounts, since: BounceCounts): string | undefined {
  const sent = now.sent - since.sent;
  if (sent < PAUSE_AFTER_SENT) return undefined;
  const complaints = now.complaint - since.complaint;
  const hard = now.hard - since.hard;
  if (complaints * 1000 > COMPLAINTS_PER_THOUSAND * sent) {
    return `${complaints} ${complaints === 1 ? 'complaint' : 'complaints'} for ${sent} mails sent (${percent(complaints, sent)}, more than 0.3 %)`;
  }
  if (hard * 100 > HARD_BOUNCES_PER_HUNDRED * sent) {
    return `${hard} hard ${hard === 1 ? 'bounce' : 'bounces'} for ${sent} mails sent (${percent(hard, sent)}, more than 5 %)`;
  }
  return undefined;
}

/** "0.5 %", "12 %". */
function percent(part: number, whole: number): string {
  const value = (part * 100) / whole;
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} %`;
}
