// The files backend, the default (docs/configuration.md "[state]"): every record in data_dir, written by this
// process alone. One line appender for the process: the archive's appends and the inbox's rewrites of an archive
// take turns (files/jsonl.ts).
import { createActivityPubFiles } from './activitypub-files.js';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createSessionStore } from '../../admin/sessions.js';
import { createSignInThrottle } from '../../admin/sign-in-throttle.js';
import type { Config, NewsletterForm } from '../../config/config.js';
import { createJsonlFiles } from '../../kit/files/jsonl.js';
import { createFileNewsletterStore } from './newsletter-store.js';
import { createAutomationFiles } from './automation-files.js';
import type { Logger } from '../../kit/log.js';
import { createAccountFiles } from './account-files.js';
import { createFileArchiveReader } from './archive-reader-files.js';
import { createFileArchiveStore } from './archive-store-files.js';
import { campaignsDirOf, createCampaignFiles } from './campaign-files.js';
import { createFileSources } from './dashboard-sources-files.js';
import { createDraftFiles, draftsDirOf } from './drafts.js';
import { createQueueFiles, queueDirOf } from './queue-files.js';
import { loadNewsletterSecret } from '../../newsletter/newsletter-secret.js';
import type { Backend } from '../backend.js';
import { createSessionFile } from './session-file.js';
import { createSuppressionFiles } from './suppressions.js';
import { createSpamFiles, spamDirOf } from './spam-files.js';
import { createCommentFiles } from './comment-files.js';
import { createCommentMailFiles } from './comment-mail-files.js';
import { createAnalyticsFiles } from './analytics-files.js';
import { withSpamPruning } from '../spam-pruning.js';

/** The records of `config.data_dir`; nothing is read until a store is used. */
export function openBackend(config: Config, logger: Logger, clock: () => number = Date.now): Backend {
  const dataDir = config.data_dir;
  const jsonl = createJsonlFiles();
  const newsletterForms = config.forms.filter((form): form is NewsletterForm => form.type === 'newsletter');
  return {
    archives: createFileArchiveStore(dataDir, jsonl.append),
    archiveReader: createFileArchiveReader(dataDir, jsonl.exclusive),
    queue: createQueueFiles(queueDirOf(dataDir)),
    campaigns: createCampaignFiles(campaignsDirOf(dataDir)),
    newsletter: createFileNewsletterStore({ dataDir, forms: newsletterForms, lists: config.newsletter.lists.map((list) => list.log), appendLine: jsonl.append, randomBytes, logger }),
    automations: createAutomationFiles(dataDir, jsonl.append),
    suppressions: createSuppressionFiles(dataDir),
    comments: createCommentFiles(dataDir, clock),
    activitypub: createActivityPubFiles(dataDir),
    commentMail: createCommentMailFiles(dataDir),
    analytics: createAnalyticsFiles(dataDir),
    spam: withSpamPruning(createSpamFiles(spamDirOf(dataDir)), { forms: config.forms, logger }),
    admin: {
      openSessions: (options) => createSessionStore({ ...options, file: createSessionFile(dataDir) }),
      // Failed sign-ins are counted in memory: one process serves data_dir. The signing key of sign-in's
      // tokens is derived from data_dir's secret, so a pending sign-in step outlives a restart.
      throttle: createSignInThrottle({
        deviceKey: async () => {
          await mkdir(dataDir, { recursive: true });
          return deriveKey(await loadNewsletterSecret(dataDir, randomBytes), 'postbox admin device cookie');
        },
      }),
    },
    // A command (`postbox users ...`) may change these beside `serve`: they are written under a lock file.
    accounts: createAccountFiles(dataDir, { appendLine: jsonl.append }),
    drafts: createDraftFiles(draftsDirOf(dataDir)),
    dashboard: createFileSources(dataDir),
    ready: async () => undefined,
    unavailableParts: () => [],
    close: async () => undefined,
  };
}

/** A key of its own for `label`, derived from `secret` (HMAC-SHA-256): it tells nothing of the secret or of other keys. */
function deriveKey(secret: Buffer, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
