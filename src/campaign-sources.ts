// What `postbox newsletter` reads a campaign from when no service runs in this process: the posts of
// blog.content_dir loaded once (as `serve` would, without watching them), the subscriber logs and the campaigns
// in data_dir.
import { createBlogService } from './blog/blog-service.js';
import type { CampaignSources } from './campaigns/campaign-plan.js';
import type { Config } from './config/config.js';
import { createLogger } from './log.js';
import { campaignsDirOf, createCampaignFiles } from './storage/campaign-files.js';
import { openNewsletterReader } from './newsletter-reader.js';

export interface LoadedSources extends CampaignSources {
  close(): Promise<void>;
}

/** The sources of `config`; undefined when it has no [blog] and [site] to take posts from. */
export async function loadCampaignSources(config: Config): Promise<LoadedSources | undefined> {
  if (!config.blog || !config.site) return undefined;
  // Warnings about broken posts belong to `serve` and `check`; here they would bury the command's own output.
  const logger = createLogger({ destination: { write: () => undefined }, timestamp: () => '' }, 'silent');
  const blog = await createBlogService(
    { site: config.site, blog: config.blog },
    { logger, requestLog: { write: () => undefined, flush: () => undefined }, clientAddressOf: () => '', rescanIntervalMs: 0 },
  );
  const newsletter = openNewsletterReader(config);
  return {
    forms: config.forms,
    findPost: (slug, lang) => blog.findPublishedPost(slug, lang),
    readSubscribers: (form) => newsletter.subscribers(form),
    store: createCampaignFiles(campaignsDirOf(config.data_dir)),
    site: { title: config.site.title, baseUrl: config.site.base_url },
    close: async () => {
      await newsletter.close();
      await blog.close();
    },
  };
}
