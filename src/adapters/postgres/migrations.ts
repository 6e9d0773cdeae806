// The versioned schema of the PostgreSQL state (docs/configuration.md "[state]"). A migration, once released, is never
// edited: a change is a new version. src/adapters/postgres/migrate.ts applies the missing ones at start.
import { ADMIN_TABLES } from './schema/admin.js';
import { ARCHIVE_TABLES } from './schema/archives.js';
import { CAMPAIGN_TABLES } from './schema/campaigns.js';
import { NEWSLETTER_TABLES } from './schema/newsletter.js';
import { QUEUE_TABLES } from './schema/queue.js';
import { SESSION_GENERATIONS } from './schema/admin-sessions-generations.js';
import { ADMIN_ACCOUNT_TABLES } from './schema/admin-accounts.js';
import { ADMIN_DRAFT_TABLES } from './schema/admin-drafts.js';
import { BOUNCE_TABLES } from './schema/bounces.js';
import { SPAM_TABLES } from './schema/spam.js';
import { ADMIN_DEVICE_COLUMNS } from './schema/admin-devices.js';
import { ADMIN_CONFIG_HASH_TAGS } from './schema/admin-config-hash-tags.js';
import { COMMENT_TABLES, WEBMENTION_SOURCE_COLUMN, WEBMENTION_TABLES } from './schema/comments.js';
import { COMMENT_MAIL_TABLES } from './schema/comment-mail.js';
import { ACTIVITYPUB_QUEUED_TABLE, ACTIVITYPUB_TABLES } from './schema/activitypub.js';
import { PENDING_LISTS_COLUMN } from './schema/newsletter-lists.js';
import { SUBSCRIBER_ATTRIBUTE_COLUMNS } from './schema/newsletter-attributes.js';
import { ANALYTICS_TABLES } from './schema/analytics.js';
import { NEWSLETTER_AUTOMATION_TABLES } from './schema/newsletter-automations.js';
import { COMMENT_THREAD_STAMPS } from './schema/comment-thread-stamps.js';
import { NEWSLETTER_AUTOMATION_CLAIMS } from './schema/newsletter-automation-claims.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Version 1: the records of data_dir as tables, one schema file per concern. Names follow the files they replace (docs/delivery.md, docs/newsletter.md). */
const initialTables = [ARCHIVE_TABLES, NEWSLETTER_TABLES, QUEUE_TABLES, CAMPAIGN_TABLES, ADMIN_TABLES].join('\n');

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  { version: 1, name: 'initial tables', sql: initialTables },
  { version: 2, name: 'session generations', sql: SESSION_GENERATIONS },
  { version: 3, name: 'admin users, invitations and audit', sql: ADMIN_ACCOUNT_TABLES },
  { version: 4, name: 'admin editor drafts', sql: ADMIN_DRAFT_TABLES },
  { version: 5, name: 'spam quarantine', sql: SPAM_TABLES },
  { version: 6, name: 'bounces and suppression list', sql: BOUNCE_TABLES },
  { version: 7, name: 'admin remembered devices', sql: ADMIN_DEVICE_COLUMNS },
  { version: 8, name: 'admin config password tags', sql: ADMIN_CONFIG_HASH_TAGS },
  { version: 9, name: 'blog comments', sql: COMMENT_TABLES },
  { version: 10, name: 'blog comment mail and replies of the site', sql: COMMENT_MAIL_TABLES },
  { version: 11, name: 'webmention sources', sql: WEBMENTION_SOURCE_COLUMN },
  { version: 12, name: 'webmentions received and sent', sql: WEBMENTION_TABLES },
  { version: 13, name: 'newsletter lists of a pending signup', sql: PENDING_LISTS_COLUMN },
  { version: 14, name: 'newsletter subscriber attributes and automations', sql: SUBSCRIBER_ATTRIBUTE_COLUMNS },
  { version: 15, name: 'analytics daily rollups', sql: ANALYTICS_TABLES },
  { version: 16, name: 'blog activitypub', sql: ACTIVITYPUB_TABLES },
  { version: 17, name: 'newsletter automations of posts', sql: NEWSLETTER_AUTOMATION_TABLES },
  { version: 18, name: 'blog activitypub inboxes queued', sql: ACTIVITYPUB_QUEUED_TABLE },
  { version: 19, name: 'newsletter automation claims', sql: NEWSLETTER_AUTOMATION_CLAIMS },
  { version: 20, name: 'blog comment thread stamps', sql: COMMENT_THREAD_STAMPS },
]);
