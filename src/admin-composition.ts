// The pages /admin serves for a configuration (docs/admin.md): the dashboard, subscribers and failed mail; the
// posts pages over blog.content_dir (or the placeholder without a blog), "Send to subscribers" when a newsletter
// form can send through the queue, and the campaigns. The composition root calls this before the services exist,
// so the blog, the campaign runner, the newsletter and the counters are reached through references it fills in later.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AdminRoute } from './admin/admin-pages.js';
import { createCampaignPages } from './admin/campaign-pages/campaign-pages.js';
import { createSendPages } from './admin/campaign-pages/send-pages.js';
import { createInboxPages } from './admin/inbox-pages/inbox-pages.js';
import type { NewsletterSending } from './admin/post-pages/post-list-page.js';
import { createPostPages } from './admin/post-pages/post-pages.js';
import { createPreviewRenderer } from './admin/post-pages/preview.js';
import { createPostFiles } from './admin/posts/post-files.js';
import { createPlaceholderPages } from './admin/views/placeholder-pages.js';
import type { BlogService } from './blog/blog-service.js';
import { createMarkdownTools } from './blog/content/markdown.js';
import type { CampaignRunner } from './campaigns/campaign-runner.js';
import { createCampaignTestSender } from './campaign-test-send.js';
import type { CampaignStore } from './campaigns/campaign-store.js';
import type { Config, NewsletterForm } from './config/config.js';
import { readSubscribers, type Newsletter, type Subscriber } from './forms/newsletter/index.js';
import type { FormsReadings } from './forms/forms-service.js';
import { createDashboardPages } from './admin/dashboard-pages/dashboard-pages.js';
import { createFileSources } from './storage/dashboard-sources-files.js';
import { createPostgresDashboardSources } from './storage/postgres/dashboard-sources.js';
import { createPostgresQueueStore } from './storage/postgres/queue-store.js';
import type { PostgresState } from './storage/postgres/state.js';
import { createQueueFiles, queueDirOf } from './storage/queue-files.js';
import type { Logger } from './log.js';
import type { Clock } from './ports.js';
import { campaignStoreOf } from './campaign-store-of.js';
import type { FileExclusive } from './files/jsonl.js';
import type { ArchiveReader } from './inbox/archive-reader.js';
import { createFileArchiveReader } from './storage/archive-reader-files.js';
import { createPostgresArchiveReader } from './storage/postgres/archive-reader.js';

/** data_dir/trash: where deleted posts go (config/data-files.ts reserves the name). */
export const TRASH_FOLDER = 'trash';

/** The blog service once it is built: the posts pages list its versions, and they are built before it. */
export interface BlogReference {
  current?: BlogService;
}

/** The forms service's campaign runner once it is built: /admin wakes it when it created a campaign. */
export interface RunnerReference {
  current?: CampaignRunner;
}

/** The forms service's newsletter once it runs: "Remove" goes through it, so its list in memory stays right. */
export interface NewsletterReference {
  current?: Newsletter;
}

/** The forms service's counters once it runs: the dashboard shows them. */
export interface ReadingsReference {
  current?: FormsReadings;
}

/** What /admin's pages reach that is built after them. */
export interface LateParts {
  blog: BlogReference;
  runner: RunnerReference;
  newsletter: NewsletterReference;
  readings: ReadingsReference;
}

/** The current subscribers of `form` from the running newsletter (its store: data_dir or PostgreSQL), else the log in data_dir. */
function subscribersOf(late: LateParts, config: Config, form: NewsletterForm): Promise<Subscriber[]> {
  return late.newsletter.current ? late.newsletter.current.listSubscribers(form) : readSubscribers(config.data_dir, form);
}

/** Whether posts can be sent from /admin: a newsletter form, and campaigns go through the mail queue. */
function newsletterSendingOf(config: Config): NewsletterSending | undefined {
  if (!config.mail || !config.forms.some((form) => form.type === 'newsletter')) return undefined;
  return config.mail.queue ? 'ready' : 'needs_queue';
}

/** The dashboard, subscribers and failed-mail pages over data_dir (or PostgreSQL), the archives and the running services. */
function dashboardPagesOf(
  config: Config,
  campaigns: CampaignStore,
  archives: ArchiveReader | undefined,
  parts: { logger: Logger; clock: Clock; late: LateParts; postgres?: PostgresState },
): readonly AdminRoute[] {
  const { late } = parts;
  return createDashboardPages(
    {
      ...createFileSources(config.data_dir),
      ...(parts.postgres && createPostgresDashboardSources(parts.postgres)),
      ...(archives && { countSubmissions: (form, days, now) => archives.countByDay({ archive: form.archive, form: form.path }, days, now) }),
      forms: config.forms,
      clock: parts.clock,
      listVersions: () => (config.blog ? (late.blog.current?.listAllVersions() ?? []) : undefined),
      readings: () => late.readings.current,
      newsletter: () => late.newsletter.current,
      queue: config.mail?.queue ? (parts.postgres ? createPostgresQueueStore(parts.postgres) : createQueueFiles(queueDirOf(config.data_dir))) : undefined,
      campaigns,
    },
    { readSubscribers: (form) => subscribersOf(late, config, form), logger: parts.logger },
  );
}

/**
 * The archives as the inbox and the dashboard read them: the archives table with [state] backend = "postgres", else
 * the files, whose deletions need the process's appender hold (the forms service's appends wait meanwhile).
 */
function archiveReaderOf(config: Config, parts: { exclusive?: FileExclusive; postgres?: PostgresState }): ArchiveReader | undefined {
  if (parts.postgres) return createPostgresArchiveReader(parts.postgres);
  return parts.exclusive && createFileArchiveReader(config.data_dir, parts.exclusive);
}

/** The dashboard, the posts pages over blog.content_dir (or the placeholder when there is no blog), the send pages, campaigns and the inbox. */
export function adminPagesOf(
  config: Config,
  parts: { logger: Logger; clock: Clock; late: LateParts; exclusive?: FileExclusive; postgres?: PostgresState },
): readonly AdminRoute[] {
  const { logger, clock, late } = parts;
  // The campaigns in data_dir, or in PostgreSQL (the composition root's one state) with [state] backend = "postgres".
  const store = campaignStoreOf(config, parts.postgres);
  const archives = archiveReaderOf(config, parts);
  // Listed first: the first page listed for an exact path answers it, and the dashboard answers /admin.
  const dashboardPages = dashboardPagesOf(config, store, archives, parts);
  const inboxPages = archives ? createInboxPages({ forms: config.forms, archives, logger }) : [];
  /** With or without a blog. */
  const sharedPages = [...createCampaignPages({ store }), ...inboxPages];
  if (!config.blog || !config.site || !config.admin) return [...dashboardPages, ...createPlaceholderPages(), ...sharedPages];
  const contentDir = config.blog.content_dir;
  const sending = newsletterSendingOf(config);
  const postPages = createPostPages({
    posts: createPostFiles({ contentDir, trashDir: path.join(config.data_dir, TRASH_FOLDER), clock }),
    listVersions: () => late.blog.current?.listAllVersions() ?? [],
    renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: config.admin.max_upload_bytes }),
    maxUploadBytes: config.admin.max_upload_bytes,
    sending,
    logger,
  });
  const mail = config.mail;
  if (sending !== 'ready' || !mail) return [...dashboardPages, ...postPages, ...sharedPages];
  const site = config.site;
  const sendPages = createSendPages({
    sources: {
      forms: config.forms,
      findPost: (slug, lang) => late.blog.current?.findPublishedPost(slug, lang),
      readSubscribers: (form) => subscribersOf(late, config, form),
      store,
      site: { title: site.title, baseUrl: site.base_url },
    },
    sendTest: createCampaignTestSender(config, mail, clock),
    wakeRunner: () => late.runner.current?.wake(),
    clock,
    randomHex: () => randomBytes(2).toString('hex'),
    logger,
  });
  return [...dashboardPages, ...postPages, ...sendPages, ...sharedPages];
}
