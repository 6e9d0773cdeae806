// Where the on_publish and digest automations keep what they did (docs/newsletter.md "Automations"): when each was
// added, with the items already there then (posts visible before it are not mailed), whether it is paused, and
// one record per item it took (a post in one language, or a digest's period), claimed before anything is planned
// so that one replica alone takes it, and which campaign mails a post to each address. src/adapters/files/automation-files.ts keeps them in data_dir,
// src/adapters/postgres/automation-store.ts in PostgreSQL, shared by every replica.

/**
 * What became of an item: `campaign` is mailed through the campaign named beside it; `baseline` was there when the
 * automation was added; `opted_out` is a post with `newsletter = false`; `empty` a digest period without posts;
 * `sent_by_hand` a post someone had sent to the same list already.
 */
export type ItemOutcome = 'campaign' | 'baseline' | 'opted_out' | 'empty' | 'sent_by_hand';

/** One item an automation took. */
export interface AutomationItem {
  automation: string;
  /** `post:<slug>:<lang>` or `digest:<RFC 3339 time of the run>`. */
  item: string;
  outcome: ItemOutcome;
  /** The campaign that mails it (outcome `campaign`), its id chosen before the claim. */
  campaign?: string;
  /** RFC 3339: when it was claimed. */
  at: string;
}

/** An automation as its state says: when it was added, and since when and by whom it is paused. */
export interface AutomationState {
  automation: string;
  addedAt: string;
  paused?: { at: string; by: string };
}

export interface AutomationStore {
  /** Every automation recorded, added or paused. */
  states(): Promise<AutomationState[]>;
  /**
   * Records `automation` as added at `at` with the items already there (`baseline`), both or neither; when it
   * was recorded before (by this process or another), nothing changes. Resolves to the state as stored.
   */
  register(automation: string, at: string, baseline: readonly string[]): Promise<AutomationState>;
  /** Takes `entry.item` for `entry.automation`: false when it was taken before, by this process or another. */
  claim(entry: AutomationItem): Promise<boolean>;
  /** Which of `items` are taken for `automation` (whatever their outcome). */
  claimedAmong(automation: string, items: readonly string[]): Promise<Set<string>>;
  /** The items `automation` took, baseline left out, oldest first. */
  runs(automation: string): Promise<AutomationItem[]>;
  /**
   * Gives each of `emails` (compared case-insensitively) that no campaign has for `item` (a post in one language) to
   * `campaign`, and returns those of `emails` that are `campaign`'s, given now or before: one address goes to one
   * campaign of a post, whatever the automations and replicas planning it at the same moment.
   */
  claimRecipients(item: string, campaign: string, emails: readonly string[]): Promise<string[]>;
  /** Whether `campaign` mails an item of an automation that is paused now: the feeder stops sending it. */
  isCampaignPaused(campaign: string): Promise<boolean>;
  /** Pauses or resumes `automation` at `at` (RFC 3339), `by` naming who asked; every replica sees it at its next look. */
  setPaused(automation: string, change: { paused: boolean; at: string; by: string }): Promise<void>;
}
