// What `postbox newsletter` reads a campaign from when no service runs in this process: the posts of
// blog.content_dir loaded once (as `serve` would, without watching them), the subscriber logs, and the campaigns
// in data_dir or in PostgreSQL ([state] backend = "postgres"; the connection is closed with the sources).
import { createBlogService, type BlogService } from './blog/blog-service.js';
import type { CampaignSources } from './campaigns/campaign-plan.js';
import type { Config } from './config/config.js';
import { createSilentLogger } from './log.js';
import { openCampaignStore } from './campaign-store-of.js';
import { openNewsletterReader } from './newsletter-reader.js';

export interface LoadedSources extends CampaignSources {
  /**
   * Once the campaign is planned: stops the blog service (its `q` index build, its summaries, its file watches), so
   * that a command watching a long campaign holds none of it. findPost answers nothing after it.
   */
  releasePosts(): Promise<void>;
  close(): Promise<void>;
}

/** The sources of `config`; undefined when it has no [blog] and [site] to take posts from; rejects when PostgreSQL does not answer. */
export async function loadCampaignSources(config: Config): Promise<LoadedSources | undefined> {
  if (!config.blog || !config.site) return undefined;
  // Warnings about broken posts belong to `serve` and `check`; here they would bury the command's own output.
  const logger = createSilentLogger();
  const campaigns = await openCampaignStore(config);
  let blog: BlogService | undefined = await createBlogService(
    { site: config.site, blog: config.blog },
    { logger, requestLog: { write: () => undefined, flush: () => undefined }, clientAddressOf: () => '', rescanIntervalMs: 0 },
  ).catch(async (error: unknown) => {
    await campaigns.close();
    throw error;
  });
  const newsletter = openNewsletterReader(config);
  let released: Promise<void> | undefined;
  const releasePosts = () => {
    if (!released) {
      // Nothing here keeps the service's posts once it is closed.
      released = blog!.close();
      blog = undefined;
    }
    return released;
  };
  return {
    forms: config.forms,
    findPost: (slug, lang) => blog?.findPublishedPost(slug, lang),
    readSubscribers: (form) => newsletter.subscribers(form),
    store: campaigns.store,
    site: { title: config.site.title, baseUrl: config.site.base_url },
    releasePosts,
    close: async () => {
      await newsletter.close();
      await releasePosts();
      await campaigns.close();
    },
  };
}
