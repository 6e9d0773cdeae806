// The PostgreSQL backend (docs/configuration.md "[state]"): every record in tables that every replica shares, over
// one pool for the process. The pool connects and migrates in the background: `serve` starts while the database is
// down and answers 503 meanwhile; a command waits for it (`ready`).
import { createPostgresActivityPubStore } from './activitypub-store.js';
import { randomBytes } from 'node:crypto';
import { postgresUrlOf, type Config } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import type { Clock } from '../../ports.js';
import { createPostgresAccountStore } from './account-store.js';
import { createPostgresSessionStore } from './admin-sessions.js';
import { createPostgresArchiveReader } from './archive-reader.js';
import { createPostgresArchiveStore } from './archive-store.js';
import { createPostgresCampaignStore } from './campaign-store.js';
import { createPostgresDashboardSources } from './dashboard-sources.js';
import { createPostgresDraftStore } from './drafts.js';
import { createPostgresNewsletterStore } from './newsletter-store.js';
import { createPostgresAutomationStore } from './automation-store.js';
import { createPostgresQueueStore } from './queue-store.js';
import { createPostgresSignInThrottle } from './sign-in-failures.js';
import { createPostgresState, migratedForCommand } from './state.js';
import { createPostgresSuppressions } from './suppressions.js';
import { createPostgresSpamStore } from './spam-store.js';
import { createPostgresCommentStore } from './comment-store.js';
import { createPostgresCommentMailStore } from './comment-mail-store.js';
import { createPostgresAnalyticsStore } from './analytics-store.js';
import { withSpamPruning } from '../spam-pruning.js';
import type { Backend } from '../backend.js';

/** The records in the PostgreSQL at `config.state.url`. */
export function openBackend(config: Config, logger: Logger, clock: Clock = Date.now): Backend {
  const state = createPostgresState(postgresUrlOf(config)!, logger);
  const archiveReader = createPostgresArchiveReader(state);
  return {
    archives: createPostgresArchiveStore(state),
    archiveReader,
    queue: createPostgresQueueStore(state, { clock }),
    campaigns: createPostgresCampaignStore(state),
    newsletter: createPostgresNewsletterStore(state, randomBytes, config.newsletter.lists.map((list) => list.log)),
    automations: createPostgresAutomationStore(state),
    suppressions: createPostgresSuppressions(state),
    comments: createPostgresCommentStore(state),
    activitypub: createPostgresActivityPubStore(state),
    commentMail: createPostgresCommentMailStore(state, () => randomBytes(16).toString('hex')),
    analytics: createPostgresAnalyticsStore(state),
    spam: withSpamPruning(createPostgresSpamStore(state), { forms: config.forms, logger, clock }),
    admin: {
      openSessions: async (options) => createPostgresSessionStore(state, options),
      throttle: createPostgresSignInThrottle(state),
    },
    accounts: createPostgresAccountStore(state),
    drafts: createPostgresDraftStore(state),
    dashboard: {
      ...createPostgresDashboardSources(state),
      countSubmissions: (form, days, now) => archiveReader.countByDay({ archive: form.archive, form: form.path }, days, now),
    },
    async ready() {
      try {
        await migratedForCommand(state);
      } catch {
        throw new Error('PostgreSQL ([state] url) cannot be reached or migrated; try again once it answers');
      }
    },
    unavailableParts: () => state.unavailableParts(),
    close: () => state.close(),
  };
}
