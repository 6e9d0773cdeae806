// The dashboard pages where things are missing or many: no running forms service (no counters, and Remove writes
// nothing), no blog, a list longer than one page, and "Retry all" over several failed messages, one of them an
// activity of the blog (the page's federation part).
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDashboardPages } from '../../src/admin/dashboard-pages/dashboard-pages.js';
import { createFileSources } from '../../src/adapters/files/dashboard-sources-files.js';
import { withoutAddresses } from '../../src/admin/dashboard-pages/failed-mail-views.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { readSubscribers } from '../../src/newsletter/index.js';
import type { QueueStore } from '../../src/queue/store.js';
import { campaignsDirOf, createCampaignFiles } from '../../src/adapters/files/campaign-files.js';
import { createQueueFiles, queueDirOf } from '../../src/adapters/files/queue-files.js';
import { createTestClock } from '../support/clock.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { loadNewsletterConfig } from '../support/newsletter.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('the dashboard pages without a running service, with a long list and several failed messages', () => {
  let remove: () => Promise<void>;
  let dataDir: string;
  let app: TestAdmin;
  let queue: QueueStore;
  let logs: LogCapture;
  let session: { csrf: string; cookie: string };

  before(async () => {
    const temp = await createTempDir('dashboard-edges');
    remove = temp.remove;
    dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const config = loadNewsletterConfig(dataDir, [
      { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'] },
      { path: '/letters/weekly', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'weekly.jsonl' },
    ]);
    const lines = Array.from({ length: 150 }, (_, index) => JSON.stringify({ event: 'subscribed', email: `reader${index}@example.org`, form: '/letters/weekly', subscribed_at: '2026-11-01T00:00:00Z' }));
    await writeFile(path.join(dataDir, 'weekly.jsonl'), `${lines.join('\n')}\n`);
    queue = createQueueFiles(queueDirOf(dataDir));
    const mail = { from: 'forms@example.com', to: 'someone@example.org', subject: 'S', text: 'T', autoSubmitted: 'auto-generated' as const };
    const stored = await queue.add(
      [
        { channel: 'mail', form: '/contact', kind: 'owner', mail },
        { channel: 'telegram', form: '/contact', text: 'someone@example.org wrote' },
        { channel: 'activitypub', form: '', inbox: 'https://social.example/users/alice/inbox', activity: { type: 'Create' } },
      ],
      NOW - 7_200_000,
    );
    for (const message of stored) await queue.fail(message.id, { attempts: 3, nextAttemptAt: NOW, lastError: 'ECONNREFUSED' }, NOW - 3_600_000);
    await queue.close();
    queue = createQueueFiles(queueDirOf(dataDir));
    logs = captureLogs();
    const clock = createTestClock(NOW);
    const pages = createDashboardPages(
      {
        ...createFileSources(dataDir),
        forms: config.forms,
        clock,
        listVersions: () => undefined,
        readings: () => undefined,
        newsletter: () => undefined,
        queue,
        campaigns: createCampaignFiles(campaignsDirOf(dataDir)),
      },
      { readSubscribers: (form) => readSubscribers(dataDir, form), logger: logs.logger },
    );
    app = await startTestAdmin({ dataDir, pages: [...pages, ...createPlaceholderPages()], clock });
    session = await signIn(app);
  });

  after(async () => {
    await app?.close();
    await queue?.close();
    await remove?.();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

  it('says what it cannot show: no archive, no counters; and shows no posts tiles without a blog', async () => {
    const page = await get('/admin');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /No form keeps an archive/);
    assert.match(page.body, /Not counted here, as they keep no archive: \/contact/);
    assert.match(page.body, /does not run in this process, so there are no counters/);
    assert.doesNotMatch(page.body, /broken posts/);
    assert.match(page.body, /<span class="admin-tile-value">3<\/span> <span class="admin-tile-label">failed mails/);
    assert.match(page.body, /150 subscribers on 2026-11-23/);
  });

  it('pages a long list 100 at a time, under a form path with a slash in it', async () => {
    const first = await get('/admin/subscribers/letters/weekly');
    assert.equal(first.statusCode, 200);
    assert.equal((first.body.match(/<td>reader\d+@example\.org<\/td>/g) ?? []).length, 100);
    assert.match(first.body, /<td>reader149@example\.org<\/td>/);
    assert.match(first.body, /Page 1 of 2, newest first/);
    assert.match(first.body, /<a href="\/admin\/subscribers\/letters\/weekly\?page=2">Older<\/a>/);
    const second = await get('/admin/subscribers/letters/weekly?page=2');
    assert.equal((second.body.match(/<td>reader\d+@example\.org<\/td>/g) ?? []).length, 50);
    assert.match(second.body, /<td>reader0@example\.org<\/td>/);
    assert.equal((await get('/admin/subscribers/letters/weekly?page=99')).statusCode, 200);
  });

  it('writes nothing when Remove finds no running newsletter, and says why', async () => {
    const before = await readFile(path.join(dataDir, 'weekly.jsonl'), 'utf8');
    const response = await app.inject(formPost('/admin/subscribers/letters/weekly', { csrf_token: session.csrf, email: 'reader3@example.org' }, { cookie: session.cookie }));
    assert.equal(response.headers.location, '/admin/subscribers/letters/weekly?notice=not_running');
    assert.equal(await readFile(path.join(dataDir, 'weekly.jsonl'), 'utf8'), before);
    assert.match((await get(response.headers.location as string)).body, /does not run in this process/);
  });

  it('shows the activities of the blog apart, by server, without the inbox that names a person', async () => {
    const page = await get('/admin/failed');
    const [mail, federation] = page.body.split('<h2>Federation</h2>');
    assert.match(mail!, /<td>mail\/owner<\/td>/);
    assert.doesNotMatch(mail!, /<td>activitypub<\/td>/);
    assert.match(federation!, /<td>activitypub<\/td>\s*<td>social\.example<\/td>/);
    assert.doesNotMatch(page.body, /alice/);
  });

  it('puts every failed message back with Retry all', async () => {
    const page = await get('/admin/failed');
    assert.doesNotMatch(page.body, /@/);
    const response = await app.inject(formPost('/admin/failed', { csrf_token: session.csrf, all: 'yes' }, { cookie: session.cookie }));
    assert.equal(response.headers.location, '/admin/failed?notice=retried_all');
    assert.deepEqual(await queue.listFailed(), []);
    assert.equal((await queue.listPending()).length, 3);
    assert.ok(logs.lines().some((line) => line.event === 'admin_mail_retried_all' && line.count === 3));
  });

  it('never shows an address in a last error', () => {
    assert.equal(withoutAddresses('smtp_550: 550 5.1.1 <ann@example.org>: rejected'), 'smtp_550: 550 5.1.1 <[address]>: rejected');
    assert.equal(withoutAddresses('ECONNREFUSED'), 'ECONNREFUSED');
  });
});
