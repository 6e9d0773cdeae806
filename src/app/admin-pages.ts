// The pages /admin serves for a configuration (docs/admin.md), built on the core: the dashboard, subscribers and
// failed mail; the posts pages over the blog's content (or the placeholder without a blog); "Send to subscribers"
// when a newsletter form can send through the queue; the campaigns and the inbox.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Backend } from '../adapters/backend.js';
import type { AdminRoute } from '../admin/admin-pages.js';
import { createCampaignPages } from '../admin/campaign-pages/campaign-pages.js';
import { createSendPages } from '../admin/campaign-pages/send-pages.js';
import { createDashboardPages } from '../admin/dashboard-pages/dashboard-pages.js';
import { createInboxPages } from '../admin/inbox-pages/inbox-pages.js';
import type { NewsletterSending } from '../admin/post-pages/post-list-page.js';
import { createPostPages } from '../admin/post-pages/post-pages.js';
import { createPreviewRenderer } from '../admin/post-pages/preview.js';
import { createPostFiles } from '../admin/posts/post-files.js';
import { TRASH_FOLDER } from '../admin/posts/trash.js';
import { createPlaceholderPages } from '../admin/views/placeholder-pages.js';
import type { BlogContent } from '../blog/blog-content.js';
import { createMarkdownTools } from '../blog/content/markdown.js';
import type { TestSendOutcome } from './campaign-test-send.js';
import type { CampaignPlan } from '../newsletter/campaigns/campaign-plan.js';
import type { Config, NewsletterForm } from '../config/config.js';
import type { Subscriber } from '../newsletter/index.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { FormsCore } from './forms-core.js';

/** What /admin's pages are built on. */
export interface AdminPagesCore {
  backend: Backend;
  /** The blog's posts, with [blog] and [site]. */
  content?: BlogContent;
  /** The running forms in this process, with [[forms]] and [mail]. */
  forms?: FormsCore;
  /** "Send a test" of a campaign: one mail now, without the queue. */
  sendTest?(plan: Pick<CampaignPlan, 'form' | 'post' | 'body'>, address: string): Promise<TestSendOutcome>;
  logger: Logger;
  clock: Clock;
}

/** Whether posts can be sent from /admin: a newsletter form, and campaigns go through the mail queue. */
function newsletterSendingOf(config: Config): NewsletterSending | undefined {
  if (!config.mail || !config.forms.some((form) => form.type === 'newsletter')) return undefined;
  return config.mail.queue ? 'ready' : 'needs_queue';
}

/** The dashboard, the posts pages (or the placeholder when there is no blog), the send pages, campaigns and the inbox. */
export function createAdminPages(config: Config, core: AdminPagesCore): readonly AdminRoute[] {
  const { backend, content, forms, logger, clock } = core;
  // The running newsletter keeps its list in memory (files): "Remove" and the lists go through it when it runs here.
  const readSubscribers = (form: NewsletterForm): Promise<Subscriber[]> => (forms ? forms.newsletter.listSubscribers(form) : backend.newsletter.listSubscribers(form));
  // Listed first: the first page listed for an exact path answers it, and the dashboard answers /admin.
  const dashboardPages = createDashboardPages(
    {
      ...backend.dashboard,
      forms: config.forms,
      clock,
      listVersions: () => content?.listAllVersions(),
      readings: () => forms?.readings,
      newsletter: () => forms?.newsletter,
      queue: config.mail?.queue ? backend.queue : undefined,
      campaigns: backend.campaigns,
    },
    { readSubscribers, logger },
  );
  const sharedPages = [...createCampaignPages({ store: backend.campaigns }), ...createInboxPages({ forms: config.forms, archives: backend.archiveReader, logger })];
  if (!content || !config.blog || !config.site || !config.admin) return [...dashboardPages, ...createPlaceholderPages(), ...sharedPages];
  const contentDir = config.blog.content_dir;
  const sending = newsletterSendingOf(config);
  const postPages = createPostPages({
    posts: createPostFiles({ contentDir, trashDir: path.join(config.data_dir, TRASH_FOLDER), clock }),
    listVersions: () => content.listAllVersions(),
    renderPreview: createPreviewRenderer({ contentDir, render: createMarkdownTools().render, maxImageBytes: config.admin.max_upload_bytes }),
    maxUploadBytes: config.admin.max_upload_bytes,
    sending,
    logger,
  });
  if (sending !== 'ready' || !core.sendTest) return [...dashboardPages, ...postPages, ...sharedPages];
  const site = config.site;
  const sendPages = createSendPages({
    sources: {
      forms: config.forms,
      findPost: (slug, lang) => content.findPublishedPost(slug, lang),
      readSubscribers,
      store: backend.campaigns,
      site: { title: site.title, baseUrl: site.base_url },
    },
    sendTest: core.sendTest,
    wakeRunner: () => forms?.campaigns?.wake(),
    clock,
    randomHex: () => randomBytes(2).toString('hex'),
    logger,
  });
  return [...dashboardPages, ...postPages, ...sendPages, ...sharedPages];
}
