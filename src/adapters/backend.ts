// Where Postbox keeps its records (docs/configuration.md "[state]"): the files of data_dir, or PostgreSQL shared
// by several replicas. Each backend is one object made by its own `openBackend` (adapters/files/backend.ts,
// adapters/postgres/backend.ts); app/open-backend.ts picks one. `serve` and every command open it once, so one
// process has one pool, and nothing else knows which backend it runs on.
import type { AdminRecords } from '../admin/admin.js';
import type { AccountStore } from '../admin/accounts/account-store.js';
import type { DraftStore } from '../admin/drafts/draft-store.js';
import type { DashboardSources } from '../admin/dashboard-pages/dashboard-sources.js';
import type { CampaignStore } from '../newsletter/campaigns/campaign-store.js';
import type { NewsletterStore } from '../newsletter/newsletter-store.js';
import type { AutomationStore } from '../newsletter/automations/automation-store.js';
import type { ArchiveReader } from '../admin/inbox/archive-reader.js';
import type { ArchiveStore } from '../ports.js';
import type { BounceStore } from '../bounces/bounce-store.js';
import type { QueueStore } from '../queue/store.js';
import type { SpamStore } from '../forms/spam/quarantine.js';
import type { CommentStore } from '../comments/comment-store.js';
import type { CommentMailStore } from '../comments/comment-mail-store.js';
import type { ActivityPubStore } from '../activitypub/activitypub-store.js';
import type { AnalyticsStore } from '../analytics/analytics-store.js';

/** Every store of one backend, and its connection. */
export interface Backend {
  /** Where accepted submissions are written before anything is sent. */
  archives: ArchiveStore;
  /** The archives as /admin's inbox and dashboard read them. */
  archiveReader: ArchiveReader;
  /** The outgoing messages (mail, Telegram, webhooks) with `[mail] queue`. */
  queue: QueueStore;
  /** Posts sent to the subscribers of a newsletter form. */
  campaigns: CampaignStore;
  /** Pending signups, subscriber logs and the unsubscribe secret. */
  newsletter: NewsletterStore;
  /** What the on_publish and digest automations took, and whether each is paused (docs/newsletter.md "Automations"). */
  automations: AutomationStore;
  /** The suppression list, the soft bounces counting, and what sent mails' tags stand for (docs/bounces.md). */
  suppressions: BounceStore;
  /** The spam quarantine and the used proof-of-work challenges (docs/spam.md "Quarantine"), pruned by spam_keep_days. */
  spam: SpamStore;
  /** The blog's comments (docs/comments.md). */
  comments: CommentStore;
  /** Reply subscribers and the single-use tokens of comment mails (docs/comments.md "Reply notifications"). */
  commentMail: CommentMailStore;
  /** The blog's key pair, followers and deliveries as an ActivityPub actor (docs/activitypub.md). */
  activitypub: ActivityPubStore;
  /** The analytics' daily rollups (docs/analytics.md). */
  analytics: AnalyticsStore;
  admin: AdminRecords;
  /** The users of /admin beyond the config's, their invitations and the audit log (docs/admin.md "Users and roles"). */
  accounts: AccountStore;
  /** The post editor's unsaved drafts, per person and post (docs/admin.md "Posts"); never in blog.content_dir. */
  drafts: DraftStore;
  /** What /admin's dashboard counts of the newsletter and the archives. */
  dashboard: Pick<DashboardSources, 'countSubmissions' | 'readSubscriberLines' | 'countPending'>;
  /**
   * For a command: resolves once the records can be used; rejects with a sentence for the owner when they cannot
   * (PostgreSQL unreachable or not migrated within 10 seconds). `serve` does not wait: it answers 503 meanwhile.
   */
  ready(): Promise<void>;
  /** The parts that cannot be reached now ("postgres"), for /health. */
  unavailableParts(): string[];
  /** Releases the connection; last, after everything that used the stores stopped. */
  close(): Promise<void>;
}
