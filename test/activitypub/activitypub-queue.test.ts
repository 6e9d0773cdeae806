// The activities' own queue (src/app/activitypub-queue.ts), when no mail queue runs: it sends what is queued at once,
// retries an inbox that answered 5xx when its time comes (fake time), and gives up at once a mail found in the
// store, which it has no channel for.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createQueueFiles, queueDirOf } from '../../src/adapters/files/queue-files.js';
import { DeliveryError } from '../../src/activitypub/federation/signed-delivery.js';
import { startActivityPubQueue } from '../../src/app/activitypub-queue.js';
import { loadTestConfig } from '../support/config.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';

describe("the activities' own queue", () => {
  it('sends activities, retries a 5xx when its time comes, and gives up mail it has no channel for', async () => {
    await withTempDir('activitypub-queue', async (dir) => {
      const config = loadTestConfig({ data_dir: 'data', site: { title: 'Blog', base_url: 'https://blog.example.com' }, blog: { content_dir: 'posts', activitypub: { enabled: true } } }, dir);
      const timers = createFakeTimer();
      const store = timers.track(createQueueFiles(queueDirOf(path.join(dir, 'data'))));
      const mail = { from: 'blog@example.com', to: 'someone@example.org', subject: 'S', text: 'T', autoSubmitted: 'auto-generated' as const };
      await store.add([{ channel: 'mail', form: '/contact', kind: 'owner', mail }], timers.now());
      const delivered: string[] = [];
      let down = true;
      const queue = await startActivityPubQueue(
        config,
        { queue: store },
        async (inbox) => {
          if (down && inbox.includes('down')) throw new DeliveryError('http_503');
          delivered.push(inbox);
        },
        { logger: captureLogs().logger, timers },
      );
      try {
        await queue.enqueue([
          { channel: 'activitypub', form: '', inbox: 'https://up.example/inbox', activity: { type: 'Create' } },
          { channel: 'activitypub', form: '', inbox: 'https://down.example/inbox', activity: { type: 'Create' } },
        ]);
        await timers.until('the first tries', async () => ((await store.listFailed()).length === 1 && (await store.listPending()).some((message) => message.attempt) ? true : undefined));
        assert.deepEqual(delivered, ['https://up.example/inbox']);
        const [failed] = await store.listFailed();
        assert.equal(failed!.message.channel, 'mail');
        assert.match(failed!.lastError, /ENOCHANNEL/);
        down = false;
        await timers.advance(30_000);
        assert.deepEqual(delivered, ['https://up.example/inbox'], 'not before its retry');
        await timers.advance(60_000);
        await timers.until('the retry', () => (delivered.length === 2 ? true : undefined));
        assert.deepEqual(await store.listPending(), []);
      } finally {
        await queue.close();
      }
    });
  });
});
