// The pages /admin serves for a configuration (docs/admin.md): the posts pages over blog.content_dir (or the
// placeholder without a blog), "Send to subscribers" when a newsletter form can send through the queue, and the
// campaigns. The composition root calls this before the services exist, so the blog and the campaign runner
// are reached through references it fills in later.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AdminRoute } from './admin/admin-pages.js';
import { createCampaignPages } from './admin/campaign-pages/campaign-pages.js';
import { createSendPages } from './admin/campaign-pages/send-pages.js';
import type { NewsletterSending } from './admin/post-pages/post-list-page.js';
import { createPostPages } from './admin/post-pages/post-pages.js';
import { createPreviewRenderer } from './admin/post-pages/preview.js';
import { createPostFiles } from './admin/posts/post-files.js';
import { createPlaceholderPages } from './admin/views/placeholder-pages.js';
import type { BlogService } from './blog/blog-service.js';
import { createMarkdownTools } from './blog/content/markdown.js';
import type { CampaignRunner } from './campaigns/campaign-runner.js';
import { sendCampaignTest } from './campaign-test-send.js';
import type { Config } from './config/config.js';
import { readSubscribers } from './forms/newsletter/index.js';
import { loadNewsletterSecret } from './forms/newsletter/newsletter-secret.js';
import type { Logger } from './log.js';
import { sendOneMail } from './mail/test-mail.js';
import type { Clock } from './ports.js';
import { campaignsDirOf, createCampaignFiles } from './storage/campaign-files.js';
import type { FileExclusive } from './storage/jsonl.js';

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

/** What /admin's pages reach that is built after them. */
export interface LateParts {
  blog: BlogReference;
  runner: RunnerReference;
}

/** Whether posts can be sent from /admin: a newsletter form, and campaigns go through the mail queue. */
function newsletterSendingOf(config: Config): NewsletterSending | undefined {
  if (!config.mail || !config.forms.some((form) => form.type === 'newsletter')) return undefined;
  return config.mail.queue ? 'ready' : 'needs_queue';
}

/** The posts pages over blog.content_dir (or the placeholder when there is no blog), the send pages and campaigns. */
export function adminPagesOf(config: Config, parts: { logger: Logger; clock: Clock; late: LateParts; exclusive?: FileExclusive }): readonly AdminRoute[] {
  const { logger, clock, late } = parts;
  const store = createCampaignFiles(campaignsDirOf(config.data_dir));
  const campaignPages = createCampaignPages({ store });
  if (!config.blog || !config.site || !config.admin) return [...createPlaceholderPages(), ...campaignPages];
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
  if (sending !== 'ready' || !mail) return [...postPages, ...campaignPages];
  const site = config.site;
  const sendPages = createSendPages({
    sources: {
      forms: config.forms,
      findPost: (slug, lang) => late.blog.current?.findPublishedPost(slug, lang),
      readSubscribers: (form) => readSubscribers(config.data_dir, form),
      store,
      site: { title: site.title, baseUrl: site.base_url },
    },
    sendTest: (plan, address) =>
      sendCampaignTest(
        {
          from: mail.from,
          publicUrl: config.server.public_url,
          siteTitle: site.title,
          loadSecret: () => loadNewsletterSecret(config.data_dir, randomBytes),
          sendNow: (message) => sendOneMail(mail, config.data_dir, message, clock, 'test of the campaign'),
        },
        plan,
        address,
      ),
    wakeRunner: () => late.runner.current?.wake(),
    clock,
    randomHex: () => randomBytes(2).toString('hex'),
    logger,
  });
  return [...postPages, ...sendPages, ...campaignPages];
}
