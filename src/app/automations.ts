// The on_publish and digest automations of `[[newsletter.automations]]` (docs/newsletter.md "Automations"), built
// on the blog's content and the mail core's campaigns: they run only where both are, with the mail queue (their
// campaigns are sent by the core's campaign feeder).
import type { Backend } from '../adapters/backend.js';
import type { BlogContent } from '../blog/blog-content.js';
import type { Config, PostAutomation } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { createPostAutomations, type PostAutomations } from '../newsletter/automations/post-automations.js';
import type { Clock, Timers } from '../ports.js';
import type { MailCore } from './mail-core.js';

/** The automations of `config`, started; undefined when it has none or lacks the blog, the queue or the campaigns. */
export function composePostAutomations(
  config: Config,
  backend: Pick<Backend, 'automations' | 'campaigns'>,
  content: BlogContent | undefined,
  core: MailCore | undefined,
  parts: { clock: Clock; timers: Timers; logger: Logger; intervalMs?: number },
): PostAutomations | undefined {
  const automations = config.newsletter.automations.filter((automation): automation is PostAutomation => automation.type !== 'welcome');
  if (automations.length === 0 || !content || !config.site || !core?.campaigns) return undefined;
  const feeder = core.campaigns;
  const running = createPostAutomations({
    automations,
    lists: config.newsletter.lists,
    segments: config.newsletter.segments,
    posts: {
      listPublished: () => content.listPublished(),
      findPublishedPost: (slug, lang) => content.findPublishedPost(slug, lang),
      nextScheduledAt: () => {
        const next = content.current().catalog.nextRelease;
        return Number.isFinite(next) ? next : undefined;
      },
    },
    // The running newsletter's view: the files' lists are kept in its memory.
    subscribers: (log) => core.newsletter.listSubscribers(log),
    store: backend.automations,
    campaigns: backend.campaigns,
    site: { title: config.site.title, baseUrl: config.site.base_url, language: config.site.language },
    timeZone: config.admin?.time_zone ?? 'UTC',
    clock: parts.clock,
    timers: parts.timers,
    logger: parts.logger,
    onCampaign: () => feeder.wake(),
    resumeCampaign: (id, by) => feeder.resume(id, by),
    intervalMs: parts.intervalMs,
  });
  running.start();
  return running;
}
