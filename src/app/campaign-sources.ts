// What `postbox newsletter` reads a campaign from when no service runs in this process: the posts of
// blog.content_dir loaded once by the blog's content core (as `serve` would, without watching them or serving them),
// the subscribers and the campaigns of the backend the command opened.
import type { Backend } from '../adapters/backend.js';
import { createBlogContent, type BlogContent } from '../blog/blog-content.js';
import type { CampaignSources } from '../newsletter/campaigns/campaign-plan.js';
import type { Config } from '../config/config.js';
import { createSilentLogger } from '../kit/log.js';

export interface LoadedSources extends CampaignSources {
  /**
   * Once the campaign is planned: stops the blog's content (its `q` index build, its summaries), so that a command
   * watching a long campaign holds none of it. findPost answers nothing after it.
   */
  releasePosts(): Promise<void>;
}

/** The sources of `config` over `backend`; undefined when it has no [blog] and [site] to take posts from. */
export async function loadCampaignSources(config: Config, backend: Pick<Backend, 'campaigns' | 'newsletter'>): Promise<LoadedSources | undefined> {
  if (!config.blog || !config.site) return undefined;
  // Warnings about broken posts belong to `serve` and `check`; here they would bury the command's own output.
  let content: BlogContent | undefined = await createBlogContent({ site: config.site, blog: config.blog }, { logger: createSilentLogger(), rescanIntervalMs: 0 });
  let released: Promise<void> | undefined;
  const releasePosts = () => {
    if (!released) {
      // Nothing here keeps the posts once the content is closed.
      released = content!.close();
      content = undefined;
    }
    return released;
  };
  return {
    lists: config.newsletter.lists,
    findPost: (slug, lang) => content?.findPublishedPost(slug, lang),
    readSubscribers: (log) => backend.newsletter.listSubscribers(log),
    store: backend.campaigns,
    site: { title: config.site.title, baseUrl: config.site.base_url },
    releasePosts,
  };
}
