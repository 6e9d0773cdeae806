// "Send to subscribers" and the campaign pages of /admin over campaigns in a real PostgreSQL ([state] backend =
// "postgres", the store chosen as the composition root chooses it): two sends at the same moment make one
// campaign, and the pages show the campaigns and counts the database holds.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCampaignPages } from '../../src/admin/campaign-pages/campaign-pages.js';
import { createSendPages } from '../../src/admin/campaign-pages/send-pages.js';
import type { CampaignStore } from '../../src/newsletter/campaigns/campaign-store.js';
import { createPostgresCampaignStore } from '../../src/adapters/postgres/campaign-store.js';
import { readSubscribers } from '../../src/newsletter/index.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { createTestClock } from '../support/clock.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';
import { createSignInThrottle } from '../../src/admin/sign-in-throttle.js';

const READERS = ['ann@example.org', 'bob@example.org', 'cy@example.org'];
const POST = { slug: 'hello', lang: 'en', title: 'Hello', url: 'https://example.com/blog/hello', html: '<p>First words.</p>', date: '2024-05-01T00:00:00Z' };

describe('the campaign pages with campaigns in PostgreSQL', () => {
  let postgres: TestPostgres;
  let state: PostgresState;
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let store: CampaignStore;
  let session: { csrf: string; cookie: string };

  before(async () => {
    postgres = await startPostgresServer();
    const temp = await createTempDir('campaign-pages-postgres');
    remove = temp.remove;
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const url = await postgres.createDatabase('admin_campaigns');
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        server: { public_url: 'https://forms.example.com' },
        state: { backend: 'postgres', url },
        mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
        forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' }],
      },
      dataDir,
    );
    await writeFile(
      path.join(dataDir, 'subscribers.jsonl'),
      READERS.map((email) => `${JSON.stringify({ event: 'subscribed', email, form: '/newsletter', subscribed_at: '2024-01-01T00:00:00Z', signed_up_at: '2024-01-01T00:00:00Z' })}\n`).join(''),
    );
    state = createPostgresState(url, captureLogs().logger);
    await state.migrated();
    store = createPostgresCampaignStore(state);
    let counter = 0;
    const pages = [
      ...createSendPages({
        sources: {
          lists: config.newsletter.lists,
          findPost: (slug, lang) => (slug === POST.slug && (lang ?? 'en') === POST.lang ? POST : undefined),
          readSubscribers: (form) => readSubscribers(dataDir, form),
          store,
          site: { title: 'Example', baseUrl: 'https://example.com' },
        },
        sendTest: async () => ({ ok: true, report: 'accepted' }),
        wakeRunner: () => undefined,
        clock: () => Date.UTC(2024, 4, 2, 10, 0, counter),
        randomHex: () => (counter++).toString(16).padStart(4, '0'),
        logger: captureLogs().logger,
        verifyPassword: async () => false,
        confirmSession: async () => undefined,
        passwordAttempts: createSignInThrottle(),
      }),
      ...createCampaignPages({ store }),
    ];
    // The admin's clock is the send pages': the password is asked again 15 minutes after sign-in on it.
    app = await startTestAdmin({ dataDir, pages, clock: createTestClock(Date.UTC(2024, 4, 2, 10, 0, 0)) });
    session = await signIn(app);
  });
  after(async () => {
    await app.close();
    await state.close();
    await postgres.close();
    await remove();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
  const start = () => app.inject(formPost('/admin/newsletter/start', { csrf_token: session.csrf, post: 'hello', lang: 'en', form: '/newsletter' }, { cookie: session.cookie }));

  it('makes one campaign of two sends at the same moment and shows its counts from the database', async () => {
    const answers = await Promise.all([start(), start()]);
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [303, 409]);
    const campaigns = await store.list();
    assert.equal(campaigns.length, 1);
    const [campaign] = campaigns;
    assert.equal(campaign!.recipients, 3);
    assert.deepEqual(await store.readRecipients(campaign!.id), READERS);
    const { rows } = await state.query<{ count: number }>('SELECT count(*)::int AS count FROM campaigns');
    assert.equal(rows[0]?.count, 1, 'in PostgreSQL');

    for (const line of [{ started_at: '2024-05-02T10:00:01Z' }, { r: 0, s: 'sent' }, { r: 1, s: 'skipped' }] as const) await store.append(campaign!.id, line);
    const progress = await get(`/admin/campaigns/${campaign!.id}/progress`);
    assert.deepEqual(JSON.parse(progress.body), { state: 'sending', sent: 1, failed: 0, skipped: 1, total: 3 });
    const list = await get('/admin/campaigns');
    assert.equal(list.statusCode, 200);
    assert.ok(list.body.includes(`/admin/campaigns/${campaign!.id}`));
  });
});
