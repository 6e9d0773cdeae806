// Three real `postbox serve` replicas share the mail queue in PostgreSQL (docs/delivery.md "Several replicas"),
// and one is SIGKILLed while its sends are under way at the SMTP server: every submission answered 200 is mailed,
// each mail exactly once, the killed replica's messages by the others once its leases ran out (60 s).
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import pg from 'pg';
import { writeConfigFile } from '../support/config.js';
import { startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { isAddressedTo, startSmtpServer } from '../support/smtp-server.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

const OWNER = 'owner@example.com';

describe('postbox serve replicas, the shared queue and a SIGKILL', () => {
  let postgres: TestPostgres;
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => {
    postgres = await startPostgresServer();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  after(async () => {
    await postgres.close();
  });

  it('mails every submission answered 200 exactly once after one replica is killed mid-send and restarted', { timeout: 240_000 }, async () => {
    const url = await postgres.createDatabase('replicas_kill');
    // Every message waits at the server until the test lets go; `false` refuses it for now (451).
    const held: Array<(accept: boolean) => void> = [];
    let holding = true;
    const smtp = await startSmtpServer({
      beforeAccept: () => (holding ? new Promise<boolean>((resolve) => held.push(resolve)) : Promise.resolve(true)),
    });
    const configFiles: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const temp = await createTempDir(`replica-${index}`);
      cleanups.push(() => temp.remove());
      configFiles.push(
        await writeConfigFile(temp.dir, {
          data_dir: temp.dir,
          server: { listen: '127.0.0.1:0' },
          state: { backend: 'postgres', url },
          mail: { transport: 'smtp', from: 'Forms <forms@example.com>', to: OWNER, smtp: { host: '127.0.0.1', port: smtp.port } },
          forms: [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 }],
        }),
      );
    }
    const replicas: ServeProcess[] = [];
    for (const file of configFiles) {
      const replica = await startPostboxServe(file);
      cleanups.unshift(() => replica.stop('SIGKILL'));
      replicas.push(replica);
    }
    cleanups.push(() => smtp.close());
    await waitFor('the replicas to be healthy', async () => {
      const statuses = await Promise.all(replicas.map(async (replica) => (await fetch(`${replica.addresses.forms}/health`)).status));
      return statuses.every((status) => status === 200) ? true : undefined;
    }, 30_000);

    const names = Array.from({ length: 150 }, (_, index) => `Sender ${index + 1}`);
    const submit = async (replica: ServeProcess, name: string) =>
      (
        await fetch(`${replica.addresses.forms}/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, email: `sender${name.split(' ')[1]}@example.org`, message: `A message from ${name}.` }),
        })
      ).status;
    const statuses = await Promise.all(names.map((name, index) => submit(replicas[index % 3]!, name)));
    assert.deepEqual(new Set(statuses), new Set([200]));
    // Every replica has sends under way at the server (each has an SMTP pool of 5 connections).
    await waitFor('sends of every replica at the server', () => (held.length >= 15 ? true : undefined), 30_000);
    assert.deepEqual(await replicas[0]!.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
    // What was under way is refused for now (the killed replica's connections are gone anyway); then the server takes everything.
    holding = false;
    for (const resolve of held.splice(0)) resolve(false);
    replicas[0] = await startPostboxServe(configFiles[0]!);
    cleanups.unshift(() => replicas[0]!.stop('SIGKILL'));

    const client = new pg.Client(url);
    await client.connect();
    cleanups.push(() => client.end());
    await waitFor('every row sent', async () => ((await client.query('SELECT 1 FROM queue_messages LIMIT 1')).rowCount === 0 ? true : undefined), 180_000, 500);
    assert.equal(smtp.received.length, 300, 'each message once');
    const owners = smtp.received.filter((message) => isAddressedTo(message, OWNER)).map((message) => message.parsed.subject);
    assert.deepEqual(owners.sort(), names.map((name) => `New contact form submission from ${name}`).sort());
    const receipts = smtp.received.filter((message) => !isAddressedTo(message, OWNER)).map((message) => message.recipients[0]);
    assert.equal(new Set(receipts).size, 150);
  });
});
