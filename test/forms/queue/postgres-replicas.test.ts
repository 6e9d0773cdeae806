// The mail queue shared by replicas in PostgreSQL (docs/delivery.md "Several replicas"), against a real SMTP
// server: three forms services on one database answer submissions 200 once their messages are rows, and every
// mail arrives exactly once, although one replica is cut off in the middle of its sends (its sends never end and
// its connection to the database is gone, as for a killed one) and rows leased by a replica that died before the
// test started are waiting. With PostgreSQL down a submission is
// answered 503, nothing is sent without its row, and the queue goes on by itself once the database is back.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { composeMailCore, composeFormsService } from '../../../src/app/compose.js';
import type { Config } from '../../../src/config/config.js';
import type { HttpService } from '../../../src/http/http-service.js';
import { createSmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import type { Mailer, MailMessage } from '../../../src/ports.js';
import { createPostgresArchiveStore } from '../../../src/adapters/postgres/archive-store.js';
import { createPostgresCampaignStore } from '../../../src/adapters/postgres/campaign-store.js';
import { createPostgresNewsletterStore } from '../../../src/adapters/postgres/newsletter-store.js';
import { createPostgresSpamStore } from '../../../src/adapters/postgres/spam-store.js';
import { createPostgresQueueStore } from '../../../src/adapters/postgres/queue-store.js';
import { createPostgresState, type PostgresState } from '../../../src/adapters/postgres/state.js';
import { loadTestConfig } from '../../support/config.js';
import { driveService } from '../../support/http.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { isAddressedTo, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { createTempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait.js';

const OWNER = 'owner@example.com';
const FAST = { firstDelayMs: 50, maxDelayMs: 200, maxAgeMs: 3_600_000 };
/** The tests' lease: a replica that is cut off loses its messages after seconds, not a minute. */
const LEASE_MS = 2_000;

interface Replica {
  service: HttpService;
  logs: LogCapture;
  state: PostgresState;
}

describe('the mail queue shared by replicas in PostgreSQL', () => {
  let postgres: TestPostgres;
  let databases = 0;
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  after(async () => {
    await postgres.close();
  });

  /** A forms service on `url` sending through `mailer` (the real SMTP mailer unless given). */
  async function startReplica(url: string, smtpPort: number, mailer?: Mailer): Promise<Replica> {
    const temp = await createTempDir('queue-replica');
    const config = loadTestConfig(
      {
        data_dir: temp.dir,
        state: { backend: 'postgres', url },
        mail: { transport: 'smtp', from: 'Forms <forms@example.com>', to: OWNER, smtp: { host: '127.0.0.1', port: smtpPort } },
        forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 }],
      },
      temp.dir,
    );
    const logs = captureLogs();
    const smtpMailer = createSmtpMailer((config.mail as Extract<Config['mail'], { transport: 'smtp' }>).smtp);
    const state = createPostgresState(url, logs.logger, { probeIntervalMs: 100 });
    // The PostgreSQL backend's stores, with leases of milliseconds instead of a minute.
    const backend = {
      archives: createPostgresArchiveStore(state),
      queue: createPostgresQueueStore(state, { leaseMs: LEASE_MS }),
      campaigns: createPostgresCampaignStore(state),
      newsletter: createPostgresNewsletterStore(state, randomBytes),
      spam: createPostgresSpamStore(state),
      unavailableParts: () => state.unavailableParts(),
    };
    const parts = { logger: logs.logger, requestLog: logs.requestLog, clock: Date.now, mailer: mailer ?? smtpMailer };
    // The production parts, with retries of milliseconds instead of minutes.
    const core = await composeMailCore(config, config.mail!, backend, { ...parts, queue: { policy: FAST, pollIntervalMs: 50 } });
    const service = await composeFormsService(config, config.mail!, backend, core, parts);
    cleanups.push(async () => {
      await service.close();
      await core.close();
      await state.close();
      await smtpMailer.close();
      await temp.remove();
    });
    return { service, logs, state };
  }

  const submit = (service: HttpService, name: string) =>
    driveService(service).inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/json', origin: 'https://example.com' },
      payload: { name, email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.org`, message: `A message from ${name}.` },
    });
  const health = async (service: HttpService) => (await driveService(service).inject({ method: 'GET', url: '/health' })).statusCode;

  async function rowCount(url: string): Promise<number> {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query<{ count: number }>('SELECT count(*)::integer AS count FROM queue_messages')).rows[0]!.count;
    } finally {
      await client.end();
    }
  }

  async function startSmtp(): Promise<TestSmtpServer> {
    const smtp = await startSmtpServer();
    // Closed after the services (cleanups run in reverse): it waits for their pooled connections.
    cleanups.unshift(() => smtp.close());
    return smtp;
  }

  it('delivers every mail of 200 submissions to three replicas exactly once, although one is cut off mid-send and a dead one left leases', async () => {
    const url = await postgres.createDatabase(`replicas_${(databases += 1)}`);
    const smtp = await startSmtp();
    // The replica that stops: its sends never end, as if it had been killed while they were under way.
    const held: MailMessage[] = [];
    const release: Array<() => void> = [];
    const frozen: Mailer = {
      send: (message) =>
        new Promise((_resolve, reject) => {
          held.push(message);
          release.push(() => reject(Object.assign(new Error('connection closed'), { code: 'ECONNRESET' })));
        }),
      close: async () => undefined,
    };
    cleanups.push(async () => {
      for (const fail of release.splice(0)) fail();
    });
    const replicas = [await startReplica(url, smtp.port, frozen), await startReplica(url, smtp.port), await startReplica(url, smtp.port)];
    await waitFor('the replicas to migrate', async () => ((await Promise.all(replicas.map((replica) => health(replica.service)))).every((status) => status === 200) ? true : undefined));

    // Rows a replica that died before this start was sending: leased, the lease run out.
    const client = new pg.Client(url);
    await client.connect();
    const orphans = Array.from({ length: 20 }, (_, index) => `orphan${index}@example.org`);
    try {
      for (const [index, to] of orphans.entries()) {
        const message = { channel: 'mail', form: '/contact', kind: 'owner', mail: { from: 'forms@example.com', to, subject: `Orphan ${index}`, text: 'Left behind.', autoSubmitted: 'auto-generated' } };
        await client.query(
          "INSERT INTO queue_messages (id, created_at, message, next_attempt_at, lease_until, leased_by) VALUES ($1, now(), $2, now(), now() - interval '1 second', 'dead-replica')",
          [`msg_orphan_${index}`, JSON.stringify(message)],
        );
      }
    } finally {
      await client.end();
    }

    const names = Array.from({ length: 200 }, (_, index) => `Sender ${index + 1}`);
    const first = await Promise.all(names.slice(0, 30).map((name, index) => submit(replicas[index % 3]!.service, name)));
    // The first replica is cut off from the database in the middle of its sends: it can neither settle nor extend them.
    await waitFor('the frozen replica to be sending', () => (held.length > 0 ? true : undefined));
    await replicas[0]!.state.close();
    const rest = await Promise.all(names.slice(30).map((name, index) => submit(replicas[1 + (index % 2)]!.service, name)));
    assert.deepEqual(new Set([...first, ...rest].map((response) => response.statusCode)), new Set([200]));

    await waitFor('every row sent', async () => ((await rowCount(url)) === 0 ? true : undefined), 60_000);
    assert.ok(held.length > 0, 'the frozen replica held messages when it stopped');
    assert.equal(smtp.received.length, 420, 'each message once');
    const owners = smtp.received.filter((message) => isAddressedTo(message, OWNER)).map((message) => message.parsed.subject?.replace('New contact form submission from ', ''));
    assert.deepEqual(owners.sort(), [...names].sort());
    const receipts = smtp.received.filter((message) => !isAddressedTo(message, OWNER)).map((message) => message.recipients[0]!);
    const expected = [...names.map((name) => `${name.toLowerCase().replace(/\s+/g, '.')}@example.org`), ...orphans];
    assert.deepEqual(receipts.sort(), expected.sort());
    // Every message the frozen replica was sending went out once, from another replica.
    for (const message of held) assert.equal(smtp.received.filter((received) => received.parsed.subject === message.subject && isAddressedTo(received, message.to)).length, 1);
  });

  it('answers 503 while PostgreSQL is down, sends nothing without its row, and resumes by itself', async () => {
    const url = await postgres.createDatabase(`replicas_${(databases += 1)}`);
    const smtp = await startSmtp();
    // The first message waits: the server refuses it for now (451), so it is a retry when the database goes.
    let accepting = false;
    smtp.options = { beforeAccept: async () => accepting };
    const replica = await startReplica(url, smtp.port);
    await waitFor('the replica to migrate', async () => ((await health(replica.service)) === 200 ? true : undefined));
    assert.equal((await submit(replica.service, 'Before Outage')).statusCode, 200);
    await waitFor('a refused try', () => (smtp.refusals > 0 || replica.logs.lines().some((line) => line.event === 'queue_retry') ? true : undefined));

    await postgres.stop();
    try {
      for (let index = 0; index < 5; index += 1) {
        const response = await submit(replica.service, `During Outage ${index}`);
        assert.equal(response.statusCode, 503);
        assert.equal(response.json().error, 'unavailable');
      }
      assert.ok(replica.logs.lines().some((line) => line.event === 'queue_unavailable'));
    } finally {
      await postgres.start();
    }
    // The SMTP server takes mail only once the database is back: a mail sent while its row could not be marked
    // sent would be sent again (the queue is at least once, docs/forms-api.md), which this test does not measure.
    accepting = true;
    await waitFor('the replica to reconnect', async () => ((await health(replica.service)) === 200 ? true : undefined), 20_000);
    assert.equal((await submit(replica.service, 'After Outage')).statusCode, 200);
    await waitFor('every row sent', async () => ((await rowCount(url)) === 0 ? true : undefined), 30_000);
    const owners = smtp.received.filter((message) => isAddressedTo(message, OWNER)).map((message) => message.parsed.subject?.replace('New contact form submission from ', ''));
    assert.deepEqual(owners.sort(), ['After Outage', 'Before Outage'], 'each accepted submission once, none of the refused');
    assert.equal(smtp.received.length, 4, 'owner mails and receipts, once each');
  });
});
