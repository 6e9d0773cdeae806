// The dashboard at /admin, the subscribers pages and the failed-mail page (docs/admin.md "Dashboard",
// "Subscribers", "Failed mail"), over one set of sources.
import type { NewsletterForm } from '../../config/config.js';
import type { Subscriber } from '../../newsletter/index.js';
import type { Logger } from '../../kit/log.js';
import type { AdminRoute } from '../admin-pages.js';
import { createDashboardPage } from './dashboard-page.js';
import type { DashboardSources } from './dashboard-sources.js';
import { createFailedMailPages } from './failed-mail-pages.js';
import { createSubscriberPages } from './subscriber-pages.js';

export function createDashboardPages(sources: DashboardSources, deps: { readSubscribers(form: NewsletterForm): Promise<Subscriber[]>; logger: Logger }): AdminRoute[] {
  return [
    ...createDashboardPage(sources),
    ...createSubscriberPages({ sources, readSubscribers: deps.readSubscribers, logger: deps.logger }),
    ...createFailedMailPages({ queue: sources.queue, clock: sources.clock, logger: deps.logger }),
  ];
}
