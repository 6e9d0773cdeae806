// The quarantine's /admin as `postbox serve` composes it (src/app/admin-pages.ts): a submission the forms service
// takes for spam is counted on the Inbox page and listed in the form's Spam view, and "Not spam" there delivers it
// through the running mail core (the owner mail reaches the outbox of the `file` transport) and takes it off.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { loadTestConfig } from '../support/config.js';
import { driveService } from '../support/http.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';

describe('the Spam view in the composed services', () => {
  it('lists what the forms service quarantined, and "Not spam" delivers it through the running core', async () => {
    await withTempDir('spam-admin', async (dir) => {
      await mkdir(path.join(dir, 'data'));
      const config = loadTestConfig(
        {
          data_dir: 'data',
          server: { listen: '127.0.0.1:0' },
          mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', queue: false },
          forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], receipt: false, spam: { max_links: 0 } }],
          admin: { users: [{ name: 'jane', password_hash: await testHash() }] },
        },
        dir,
      );
      const composed = await composeServices(config, captureLogs());
      try {
        const service = driveService(composed.services[0]!);
        const submitted = await service.inject({
          method: 'POST',
          url: '/contact',
          headers: { 'content-type': 'application/json', origin: 'https://example.com' },
          payload: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', message: 'My engine is at https://engine.example, please look.' }),
        });
        assert.equal(submitted.statusCode, 200);
        const outbox = path.join(dir, 'data', 'outbox');
        const mails = async () => (await readdir(outbox).catch(() => [])).filter((name) => name.endsWith('.eml'));
        assert.deepEqual(await mails(), [], 'quarantined: nothing sent');

        const signedIn = await service.inject({
          method: 'POST',
          url: '/admin/login',
          payload: new URLSearchParams({ name: 'jane', password: PASSWORD }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
        const get = (url: string) => service.inject({ method: 'GET', url, headers: { cookie } });
        assert.match((await get('/admin/inbox')).body, /href="\/admin\/spam\/contact">1 waiting/);
        const view = await get('/admin/spam/contact');
        assert.match(view.body, /My engine is at https:\/\/engine\.example, please look\./);
        assert.match(view.body, /more links than the form allows/);
        const id = /name="id" value="([^"]+)"/.exec(view.body)?.[1];
        const csrf = /name="csrf_token" value="([^"]+)"/.exec(view.body)?.[1];
        assert.ok(id && csrf);

        const released = await service.inject({
          method: 'POST',
          url: '/admin/spam/contact',
          payload: new URLSearchParams({ csrf_token: csrf, id }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        });
        assert.equal(released.statusCode, 303);
        assert.equal(released.headers.location, '/admin/spam/contact?notice=released');
        const sent = await mails();
        assert.equal(sent.length, 1, 'the owner mail');
        assert.match(await readFile(path.join(outbox, sent[0]!), 'utf8'), /engine\.example/);
        assert.match((await get('/admin/spam/contact?notice=released')).body, /Delivered\.[\s\S]*Nothing is waiting in the quarantine\./);
      } finally {
        await composed.close();
      }
    });
  });
});
