// A campaign: one post sent to the subscribers of one newsletter form in one language (docs/newsletter.md
// "Sending a post"), and its journal: one line per recipient whose mail left the queue or who was skipped.
// Pure: the journal's lines come in, the counts go out.
import { createHash } from 'node:crypto';

/** What a campaign was asked to send, fixed when it is created (campaign.json). */
export interface CampaignRequest {
  /** Sortable by creation: `<UTC date and time>-<random>`. */
  id: string;
  /** The list whose subscribers receive the post, by the key of its log: a newsletter form's path, or a list id. */
  form: string;
  slug: string;
  lang: string;
  subject: string;
  post_url: string;
  /** RFC 3339 UTC. */
  created_at: string;
  /** How many addresses the list had when the campaign was created. */
  recipients: number;
  /** Set when the campaign sends a post that was sent to the same form in the same language before. */
  resend: boolean;
}

/** What became of one recipient: a mail the server accepted, one given up, or an address no longer subscribed. */
export type RecipientOutcome = 'sent' | 'failed' | 'skipped';

/** What a campaign's bounces are measured against (docs/bounces.md "Suppression"): mails sent, hard bounces, complaints. */
export interface BounceCounts {
  sent: number;
  hard: number;
  complaint: number;
}

/**
 * A line of a campaign's journal.jsonl. `paused_at`: the campaign paused itself, saying why, with the counts it
 * paused at; `resumed_at`: someone resumed it, with the counts then (the bounce rates count from there).
 */
export type JournalLine =
  | { r: number; s: RecipientOutcome }
  | { started_at: string }
  | { finished_at: string }
  | ({ paused_at: string; reason: string } & BounceCounts)
  | ({ resumed_at: string; by?: string } & BounceCounts);

/** A campaign that paused itself and was not resumed since: when and why. */
export interface CampaignPause {
  at: string;
  reason: string;
}

/** The counts a campaign came to so far; `queued` are in the mail queue, `left` not reached yet. */
export interface CampaignProgress {
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  started: boolean;
  finished: boolean;
  /** Set while the campaign is paused (docs/bounces.md "Suppression"). */
  paused?: CampaignPause;
}

/** Per recipient: nothing yet, in the queue, or an outcome (the codes a Uint8Array keeps, one byte a recipient). */
export const RecipientState = { none: 0, queued: 1, sent: 2, failed: 3, skipped: 4 } as const;
const OUTCOME_STATE: Record<RecipientOutcome, number> = { sent: RecipientState.sent, failed: RecipientState.failed, skipped: RecipientState.skipped };

/** What a journal says: every recipient's state (a later line about the same recipient wins), and the campaign's. */
export interface FoldedJournal {
  states: Uint8Array;
  started: boolean;
  finished: boolean;
  /** The last pause, unless a resume came after it. */
  paused?: CampaignPause;
  /** The counts of the last resume: the bounce rates count from there (zero before any). */
  since: BounceCounts;
}

export function foldJournal(lines: readonly JournalLine[], total: number): FoldedJournal {
  const states = new Uint8Array(total);
  let started = false;
  let finished = false;
  let paused: CampaignPause | undefined;
  let since: BounceCounts = { sent: 0, hard: 0, complaint: 0 };
  for (const line of lines) {
    // A line that is JSON but not an object (edited by hand) says nothing.
    if (typeof line !== 'object' || line === null) continue;
    if ('r' in line) {
      if (Number.isInteger(line.r) && line.r >= 0 && line.r < total && line.s in OUTCOME_STATE) states[line.r] = OUTCOME_STATE[line.s];
    } else if ('started_at' in line) started = true;
    else if ('finished_at' in line) finished = true;
    else if ('paused_at' in line) paused = { at: String(line.paused_at), reason: String(line.reason ?? '') };
    else if ('resumed_at' in line) {
      paused = undefined;
      since = { sent: countOf(line.sent), hard: countOf(line.hard), complaint: countOf(line.complaint) };
    }
  }
  return { states, started, finished, ...(paused ? { paused } : {}), since };
}

/** A count a hand-edited line may have lost: 0 then. */
function countOf(value: unknown): number {
  return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}

/** The state code of an outcome. */
export function stateOf(outcome: RecipientOutcome): number {
  return OUTCOME_STATE[outcome];
}

/** The counts of `states`. */
export function countStates(states: Uint8Array, flags: { started: boolean; finished: boolean; paused?: CampaignPause }): CampaignProgress {
  let sent = 0;
  let failed = 0;
  let skipped = 0;
  for (const state of states) {
    if (state === RecipientState.sent) sent += 1;
    else if (state === RecipientState.failed) failed += 1;
    else if (state === RecipientState.skipped) skipped += 1;
  }
  return { total: states.length, sent, failed, skipped, started: flags.started, finished: flags.finished, ...(flags.paused && !flags.finished ? { paused: flags.paused } : {}) };
}

/** The progress `lines` record for a campaign of `total` recipients. */
export function progressOf(lines: readonly JournalLine[], total: number): CampaignProgress {
  const { states, started, finished, paused } = foldJournal(lines, total);
  return countStates(states, { started, finished, paused });
}

/** The one place after the last recipient the journal or the queue knows of: where a resumed campaign goes on. */
export function resumePoint(states: Uint8Array): number {
  for (let index = states.length - 1; index >= 0; index -= 1) if (states[index] !== RecipientState.none) return index + 1;
  return 0;
}

/** A new campaign id: the UTC time to the second, then 4 random hex digits (two campaigns in a second differ). */
export function createCampaignId(now: number, random: string): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${random}`;
}

/** Whether `id` has the shape createCampaignId gives (a folder name under data_dir/campaigns). */
export function isCampaignId(id: string): boolean {
  return /^\d{8}T\d{6}Z-[0-9a-f]{4,}$/.test(id);
}

/** Whether `value` (a parsed campaign.json in the folder `id`) has every field a campaign needs. */
export function isCampaignRequest(value: unknown, id: string): value is CampaignRequest {
  if (typeof value !== 'object' || value === null) return false;
  const request = value as Record<string, unknown>;
  return (
    request.id === id &&
    ['form', 'slug', 'lang', 'subject', 'post_url', 'created_at'].every((key) => typeof request[key] === 'string') &&
    Number.isInteger(request.recipients) &&
    (request.recipients as number) >= 0
  );
}

/** The key of the campaign of (form, slug, lang) that follows the campaigns `after`: one campaign per key (CampaignStore.claim). */
export function claimKeyOf(form: string, slug: string, lang: string, after: readonly string[]): string {
  return createHash('sha256').update([form, slug, lang, ...after].join('\n')).digest('hex').slice(0, 32);
}
