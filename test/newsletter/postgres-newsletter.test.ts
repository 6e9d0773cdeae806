// The newsletter's records in a real PostgreSQL shared by several replicas (docs/newsletter.md "With PostgreSQL"): a
// confirmation token redeems exactly once across them, an unsubscribe on one counts on the others at once, unsubscribe
// links work on every replica, and PostgreSQL down means 503 until it is back, never a lost signup or a second
// confirm.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { TEST_ORIGIN, useTestFormsService, type TestFormsService } from '../support/forms-app.js';
import { tokenOf } from '../support/newsletter.js';
import { createUnsubscribeToken } from '../../src/newsletter/unsubscribe-token.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { waitFor } from '../support/wait.js';
import { openBackend } from '../../src/app/open-backend.js';
import { createSilentLogger } from '../../src/kit/log.js';
import type { NewsletterForm } from '../../src/config/config.js';
import type { Newsletter } from '../../src/newsletter/index.js';

const start = useTestFormsService();
const EMAIL = 'ada@example.org';

type Replica = TestFormsService & { newsletter: Newsletter; form: NewsletterForm };

/** The unsubscribe link of the last mail to a subscriber, as a request path. */
function unsubscribePathOf(text: string): string {
  const match = /https:\/\/forms\.example\.com(\/newsletter\/unsubscribe\?token=[A-Za-z0-9_.%-]+)/.exec(text);
  if (!match?.[1]) throw new Error('no unsubscribe link');
  return match[1];
}

describe('newsletter in PostgreSQL', () => {
  let postgres: TestPostgres;
  let database = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  /** `count` replicas on one fresh database, each once it migrated. */
  async function replicas(count: number): Promise<{ services: Replica[]; url: string }> {
    database += 1;
    const url = await postgres.createDatabase(`newsletter_${database}`);
    return { services: await replicasOn(url, count), url };
  }

  /** `count` more replicas on the database at `url`. */
  async function replicasOn(url: string, count: number): Promise<Replica[]> {
    const services: Replica[] = [];
    for (let index = 0; index < count; index += 1) {
      let newsletter: Newsletter | undefined;
      const service = await start({
        forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], rate_limit_per_hour: 0 }],
        extra: { server: { public_url: 'https://forms.example.com' }, state: { backend: 'postgres', url } },
      });
      newsletter = service.core.newsletter;
      await waitFor('the replica to migrate', async () => ((await health(service)) === 200 ? true : undefined), 20_000);
      const form = service.config.forms[0]!;
      assert.ok(form.type === 'newsletter');
      services.push(Object.assign(service, { newsletter: newsletter!, form }));
    }
    return services;
  }
  const health = async (service: TestFormsService) => (await service.app.inject({ method: 'GET', url: '/health' })).statusCode;
  const signup = (service: TestFormsService, email = EMAIL) =>
    service.app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ email }) });
  const confirm = (service: TestFormsService, token: string) => service.app.inject({ method: 'GET', url: `/newsletter/confirm?token=${token}` });
  const query = async (url: string, text: string) => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  /** Signs up on `on`, confirms on `by`, and returns the token. */
  async function subscribe(on: TestFormsService, by: TestFormsService, email = EMAIL): Promise<string> {
    assert.equal((await signup(on, email)).statusCode, 200);
    const token = tokenOf(on.mailer.sent.at(-1));
    assert.equal((await confirm(by, token)).statusCode, 200);
    return token;
  }

  it('redeems a token exactly once when 100 confirmations of it hit three replicas at once', async () => {
    const { services, url } = await replicas(3);
    assert.equal((await signup(services[0]!)).statusCode, 200);
    const token = tokenOf(services[0]!.mailer.sent.at(-1));
    const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => confirm(services[index % 3]!, token)));
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 200).length, 1);
    assert.equal(statuses.filter((status) => status === 410).length, 99);
    const notices = services.flatMap((service) => service.mailer.sent.filter((mail) => mail.subject.startsWith('New newsletter subscriber')));
    assert.equal(notices.length, 1, 'the owner hears of it once');
    const events = await query(url, 'SELECT log, form, event, email FROM subscriber_events');
    assert.deepEqual(events, [{ log: 'newsletter-subscribers.jsonl', form: '/newsletter', event: 'subscribed', email: EMAIL }]);
    assert.deepEqual(await query(url, 'SELECT hash FROM pending_signups'), []);
    assert.ok(!(await readdir(services[0]!.dataDir)).some((name) => name.startsWith('newsletter')), 'no newsletter file beside it');
  });

  it('sees a subscription and an unsubscription made on another replica at once', async () => {
    const { services } = await replicas(2);
    const [first, second] = services as [Replica, Replica];
    await subscribe(first, second);
    const form = first.form;
    assert.equal(await first.newsletter.isSubscribed(form, 'ADA@example.org'), true);
    // Signing up again on the other replica is a duplicate: no second link.
    const sent = second.mailer.sent.length;
    assert.equal((await signup(second, 'Ada@Example.org')).statusCode, 200);
    assert.equal(second.mailer.sent.length, sent);
    // A link made by the first replica unsubscribes on the second.
    const link = await first.newsletter.unsubscribeLinkFor(form, EMAIL);
    const path = unsubscribePathOf(link);
    assert.equal((await second.app.inject({ method: 'GET', url: path })).statusCode, 200);
    assert.equal((await second.app.inject({ method: 'POST', url: path })).statusCode, 200);
    assert.equal(await first.newsletter.isSubscribed(form, EMAIL), false);
    // And the address may sign up again, on either replica.
    assert.equal((await signup(first)).statusCode, 200);
    assert.equal((await confirm(second, tokenOf(first.mailer.sent.at(-1)))).statusCode, 200);
    assert.equal(await second.newsletter.isSubscribed(form, EMAIL), true);
    // The list a campaign and `postbox subscribers export` read: the last event of each address, from the rows.
    await subscribe(second, first, 'grace@example.org');
    const list = [
      { email: EMAIL, subscribed_at: '2024-05-01T12:00:00.000Z', signed_up_at: '2024-05-01T12:00:00.000Z', source: '/newsletter' },
      { email: 'grace@example.org', subscribed_at: '2024-05-01T12:00:00.000Z', signed_up_at: '2024-05-01T12:00:00.000Z', source: '/newsletter' },
    ];
    assert.deepEqual(await first.newsletter.listSubscribers(form), list);
    // As a command reads them: a backend of its own.
    const backend = openBackend(second.config, createSilentLogger());
    try {
      await backend.ready();
      assert.deepEqual(await backend.newsletter.listSubscribers(form), list);
      assert.equal(await first.newsletter.unsubscribeLinkFor(form, EMAIL), `${form.unsubscribe_url}?token=${createUnsubscribeToken(await backend.newsletter.secret(), form.path, EMAIL)}`);
    } finally {
      await backend.close();
    }
  });

  it('shares one unsubscribe secret: a replica started later makes the same links', async () => {
    const { services, url } = await replicas(1);
    const form = services[0]!.form;
    const made = await services[0]!.newsletter.unsubscribeLinkFor(form, EMAIL);
    const [late] = (await replicasOn(url, 1)) as [Replica];
    assert.equal(await late.newsletter.unsubscribeLinkFor(form, EMAIL), made);
    assert.equal((await query(url, 'SELECT count(*)::int AS n FROM newsletter_secret'))[0].n, 1);
  });

  it('answers 503 unavailable while PostgreSQL is down, losing and confirming nothing, and recovers by itself', async () => {
    const { services, url } = await replicas(1);
    const service = services[0]!;
    const form = service.form;
    await subscribe(service, service, 'grace@example.org');
    assert.equal((await signup(service)).statusCode, 200);
    const token = tokenOf(service.mailer.sent.at(-1));
    const unsubscribe = unsubscribePathOf(await service.newsletter.unsubscribeLinkFor(form, 'grace@example.org'));
    const mails = service.mailer.sent.length;
    await postgres.stop();
    try {
      for (const response of [
        await signup(service, 'linus@example.org'),
        await confirm(service, token),
        await service.app.inject({ method: 'POST', url: unsubscribe }),
      ]) {
        assert.equal(response.statusCode, 503);
        assert.equal(response.json().error, 'unavailable');
      }
      assert.equal(service.mailer.sent.length, mails, 'no link and no notice went out');
      // The unsubscribe page only checks the link against the secret read before: it changes nothing and still shows.
      assert.equal((await service.app.inject({ method: 'GET', url: unsubscribe })).statusCode, 200);
      assert.ok(service.logs.lines().some((line) => line.event === 'newsletter_unavailable'));
    } finally {
      await postgres.start();
    }
    await waitFor('the replica to reconnect', async () => ((await health(service)) === 200 ? true : undefined), 20_000);
    // The token refused while down still works, once.
    assert.equal((await confirm(service, token)).statusCode, 200);
    assert.equal((await confirm(service, token)).statusCode, 410);
    assert.equal((await service.app.inject({ method: 'POST', url: unsubscribe })).statusCode, 200);
    assert.equal((await signup(service, 'linus@example.org')).statusCode, 200);
    const rows = await query(url, 'SELECT email, event FROM subscriber_events ORDER BY id');
    assert.deepEqual(rows, [
      { email: 'grace@example.org', event: 'subscribed' },
      { email: EMAIL, event: 'subscribed' },
      { email: 'grace@example.org', event: 'unsubscribed' },
    ]);
    assert.deepEqual(await query(url, 'SELECT email FROM pending_signups'), [{ email: 'linus@example.org' }]);
  });
});
