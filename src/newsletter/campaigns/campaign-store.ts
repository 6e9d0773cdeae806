// Where campaigns are kept, as the runner, `postbox newsletter` and /admin see it; src/adapters/files/campaign-files.ts
// keeps them in data_dir/campaigns (docs/newsletter.md "On disk"), src/adapters/postgres/campaign-store.ts in
// PostgreSQL, shared by every replica.
import type { CampaignRequest, JournalLine } from './campaign.js';
import type { CampaignContent } from './campaign-mail.js';

/** The mail of a campaign as it was rendered when the campaign was created: every recipient gets this. */
export type CampaignBody = CampaignContent;

export interface CampaignStore {
  /** Writes a new campaign whole (request, body, recipients) or not at all. */
  create(request: CampaignRequest, body: CampaignBody, recipients: readonly string[]): Promise<void>;
  /** Every campaign, oldest first; unreadable folders are left out. */
  list(): Promise<CampaignRequest[]>;
  read(id: string): Promise<CampaignRequest | undefined>;
  readBody(id: string): Promise<CampaignBody>;
  readRecipients(id: string): Promise<string[]>;
  /** The journal's lines; a torn last line (a process killed while writing it) is left out. */
  readJournal(id: string): Promise<JournalLine[]>;
  /** Appends `line`; resolves once it is written (a killed process keeps it; see done-journal.ts for the power-cut case). */
  append(id: string, line: JournalLine): Promise<void>;
  /**
   * Takes, for the caller, the campaign of (form, slug, lang) that follows the campaigns `after` (their ids):
   * false when another caller took it first.
   */
  claim(form: string, slug: string, lang: string, after: readonly string[]): Promise<boolean>;
  /**
   * Takes or renews, for this process, the right to send campaign `id` for a while: false while another process
   * holds it. Absent when one process sends every campaign (files): it may always send.
   */
  lease?(id: string): Promise<boolean>;
  /** Gives up this process's lease of `id` (it stops), so that another process takes the campaign over at once. */
  release?(id: string): Promise<void>;
}
