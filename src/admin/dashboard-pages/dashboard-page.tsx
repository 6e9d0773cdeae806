// /admin, the dashboard (docs/admin.md "Dashboard"): read-only, gathered on every request.
import type { AdminRoute } from '../admin-pages.js';
import { htmlAnswer } from '../render.js';
import { gatherDashboard } from './dashboard-data.js';
import type { DashboardSources } from './dashboard-sources.js';
import { DashboardPage } from './dashboard-views.js';

export function createDashboardPage(sources: DashboardSources): AdminRoute[] {
  return [
    {
      path: '/admin',
      methods: { GET: async (_request, session) => htmlAnswer(200, <DashboardPage session={session} dashboard={await gatherDashboard(sources)} />) },
    },
  ];
}
