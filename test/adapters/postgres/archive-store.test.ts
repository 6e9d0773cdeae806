// The form archive in a real PostgreSQL (docs/configuration.md "[state]"): each accepted submission is a row equal to
// the line the files backend writes, kept before anything is sent; PostgreSQL down means 503 and an unhealthy /health,
// never a submission delivered without its record, until it is back.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { contactForm, TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';
import { waitFor } from '../../support/wait.js';

const start = useTestFormsService();
const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', service: 'Hosting', message: 'Hello! I would like a website.' };

describe('form archive in PostgreSQL', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  const replica = () =>
    start({ forms: [contactForm({ archive: 'contact.jsonl', rate_limit_per_hour: 0 })], extra: { state: { backend: 'postgres', url: postgres.url } } });
  const post = (service: TestFormsService, body: unknown = ADA) =>
    service.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify(body) });
  const health = async (service: TestFormsService) => (await service.app.inject({ method: 'GET', url: '/health' })).statusCode;
  const rows = async () => {
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      return (await client.query('SELECT archive, form, received_at, data FROM archives ORDER BY id')).rows;
    } finally {
      await client.end();
    }
  };

  it('keeps each accepted submission as a row equal to the archive line, and writes no file', async () => {
    const first = await replica();
    const second = await replica();
    await waitFor('both replicas to migrate', async () => ((await health(first)) === 200 && (await health(second)) === 200 ? true : undefined));
    let rowsAtFirstSend: unknown[] | undefined;
    first.mailer.beforeSend = async () => {
      rowsAtFirstSend ??= await rows();
    };
    assert.equal((await post(first)).statusCode, 200);
    second.clock.advance(1_000);
    assert.equal((await post(second, { ...ADA, name: 'Grace Hopper', email: 'grace@example.org' })).statusCode, 200);
    const line = { received_at: '2024-05-01T12:00:00.000Z', form: '/contact', type: 'contact', ...ADA };
    const kept = await rows();
    assert.deepEqual(
      kept.map((row) => row.data),
      [line, { ...line, received_at: '2024-05-01T12:00:01.000Z', name: 'Grace Hopper', email: 'grace@example.org' }],
    );
    assert.deepEqual(
      kept.map((row) => [row.archive, row.form, (row.received_at as Date).toISOString()]),
      [
        ['contact.jsonl', '/contact', '2024-05-01T12:00:00.000Z'],
        ['contact.jsonl', '/contact', '2024-05-01T12:00:01.000Z'],
      ],
    );
    assert.equal(rowsAtFirstSend?.length, 1, 'the row was committed when the first mail went out');
    assert.ok(!(await readdir(first.dataDir)).includes('contact.jsonl'), 'no archive file beside it');
  });

  it('answers 503 unavailable while PostgreSQL is down, sending nothing, and recovers by itself', async () => {
    const service = await replica();
    await waitFor('the replica to migrate', async () => ((await health(service)) === 200 ? true : undefined));
    const before = (await rows()).length;
    await postgres.stop();
    try {
      for (let index = 0; index < 5; index += 1) {
        const response = await post(service);
        assert.equal(response.statusCode, 503);
        assert.equal(response.json().error, 'unavailable');
      }
      await waitFor('the replica to notice', async () => ((await health(service)) === 503 ? true : undefined));
      const answer = await service.app.inject({ method: 'GET', url: '/health' });
      assert.deepEqual(answer.json(), { status: 'unavailable', forms: 1, unavailable: ['postgres'] });
      assert.equal(service.mailer.sent.length, 0, 'nothing was sent without its record');
      assert.ok(service.logs.lines().some((line) => line.event === 'archive_unavailable'));
      assert.ok(service.logs.lines().some((line) => line.event === 'postgres_unavailable'));
    } finally {
      await postgres.start();
    }
    await waitFor('the replica to reconnect', async () => ((await health(service)) === 200 ? true : undefined), 20_000);
    assert.equal((await post(service)).statusCode, 200);
    assert.equal((await rows()).length, before + 1, 'the one accepted while up is kept, none of the refused');
  });

  it('starts while PostgreSQL is down and migrates once it is there', async () => {
    await postgres.stop();
    let service: TestFormsService;
    try {
      service = await replica();
      assert.equal(await health(service), 503);
      assert.equal((await post(service)).statusCode, 503);
    } finally {
      await postgres.start();
    }
    await waitFor('the replica to migrate', async () => ((await health(service)) === 200 ? true : undefined), 20_000);
    assert.equal((await post(service)).statusCode, 200);
  });
});
