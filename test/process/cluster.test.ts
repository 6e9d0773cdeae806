// Three real `postbox serve` replicas behind a real nginx, on one PostgreSQL and one Redis
// (examples/cluster/README.md): a client's rate limit holds across replicas exactly; Redis or PostgreSQL down answers
// 503 (never a bypass) and service resumes by itself; a confirmation link clicked 100 times at once over the replicas
// confirms once; a campaign is sent once, not once per replica; a replica SIGKILLed under load loses no submission
// answered 200, and mails each exactly once. CLUSTER_SUBMISSIONS sets how many submissions the kill scenario sends
// (default 300).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type ClusterReplica, type TestCluster } from '../support/cluster.js';
import { runPostbox } from '../support/postbox-process.js';
import { isAddressedTo, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { waitFor } from '../support/wait.js';

const SUBMISSIONS = Number(process.env.CLUSTER_SUBMISSIONS ?? 300);
const CONCURRENCY = 8;

const FORMS = [
  { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 10, archive: 'contact.jsonl' },
  { path: '/bulk', type: 'contact', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0, archive: 'bulk.jsonl' },
  { path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'], rate_limit_per_hour: 0 },
];
const POSTS = { 'spring-news.md': '+++\ntitle = "Spring news"\ndate = 2026-03-01\n+++\n\nThe garden is open again.\n' };
const OWNER = 'owner@example.com';

/** A submission from `client` (the address the test, as the proxy in front of nginx, names in X-Forwarded-For). */
function submit(base: string, form: string, client: string, name: string): Promise<Response> {
  return fetch(`${base}${form}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ name, email: 'sender@example.org', message: `A message from ${name}.` }),
  });
}

async function statusAndBody(response: Promise<Response>): Promise<{ status: number; body: unknown }> {
  // undici's "fetch failed" alone does not say why: name the cause (a reset, a refused connection).
  const answer = await response.catch((error: Error) => {
    throw new Error(`${error.message}: ${String(error.cause)}`, { cause: error });
  });
  return { status: answer.status, body: await answer.json().catch(() => undefined) };
}

/** Which replicas answered requests from `client` with `status` (by their own request log lines). */
function replicasThatAnswered(replicas: ClusterReplica[], client: string, status: number): number[] {
  return replicas.flatMap((replica, index) =>
    replica.requestLines().some((line) => line.ip === client && line.method === 'POST' && line.status === status) ? [index] : [],
  );
}

/** Signs `email` up to /newsletter through nginx and returns the confirmation link's path and query, from its mail. */
async function signUp(cluster: TestCluster, email: string, client: string): Promise<string> {
  const response = await fetch(`${cluster.base}/newsletter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ email }),
  });
  assert.equal(response.status, 200, `signup of ${email}: ${await response.text()}`);
  const mail = await cluster.smtp.waitForMessage(`the confirmation mail to ${email}`, (message) => isAddressedTo(message, email), 30_000);
  const link = /https:\/\/forms\.example\.com(\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.parsed.text ?? '');
  assert.ok(link, `a confirmation link in: ${mail.parsed.text}`);
  return link[1] as string;
}

/** The owner's notices of a new subscriber naming `email`. */
function subscriberNotices(smtp: TestSmtpServer, email: string): ReceivedMessage[] {
  return smtp.received.filter(
    (message) => isAddressedTo(message, OWNER) && message.parsed.subject === 'New newsletter subscriber on /newsletter' && (message.parsed.text ?? '').includes(email),
  );
}

/** Waits (bounded) until the shared queue holds nothing more to send: every mail queued so far went out. */
async function waitForEmptyQueue(cluster: TestCluster, timeoutMs: number): Promise<void> {
  await waitFor('the shared queue to hold nothing more to send', async () => {
    const rows = await cluster.query<{ count: string }>('SELECT count(*) FROM queue_messages WHERE failed_at IS NULL');
    return Number(rows[0]?.count) === 0 ? true : undefined;
  }, timeoutMs, 250);
  const failed = await cluster.query<{ count: string }>('SELECT count(*) FROM queue_messages WHERE failed_at IS NOT NULL');
  assert.equal(Number(failed[0]?.count), 0, 'no message given up');
}

const OWNER_SUBJECT = 'New contact form submission from ';

/** The owner mails of the /bulk submissions (named `Bulk <n>`) the sink accepted. */
function ownerMails(smtp: TestSmtpServer): ReceivedMessage[] {
  return smtp.received.filter((message) => isAddressedTo(message, OWNER) && message.parsed.subject?.startsWith(`${OWNER_SUBJECT}Bulk `) === true);
}

async function healthStatus(replica: ClusterReplica): Promise<{ status: number; body: unknown }> {
  return statusAndBody(fetch(`${replica.base}/health`, { signal: AbortSignal.timeout(5_000) }));
}

async function waitUntilHealthy(cluster: TestCluster): Promise<void> {
  for (const replica of cluster.replicas) {
    await waitFor(`${replica.address}/health 200`, async () => ((await healthStatus(replica).catch(() => undefined))?.status === 200 ? true : undefined), 30_000, 100);
  }
}

describe('three replicas behind nginx on PostgreSQL and Redis', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startCluster({ replicas: 3, forms: FORMS, posts: POSTS });
    await waitUntilHealthy(cluster);
  });
  after(async () => {
    await cluster?.close();
  });

  it("holds a client's rate_limit_per_hour exactly across the replicas", async () => {
    const client = '203.0.113.10';
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      assert.equal((await submit(cluster.base, '/contact', client, `Limited ${attempt}`)).status, 200, `submission ${attempt}`);
    }
    // nginx takes turns: the next three land on three different replicas, and each of them refuses.
    for (let attempt = 11; attempt <= 13; attempt += 1) {
      const answer = await statusAndBody(submit(cluster.base, '/contact', client, `Limited ${attempt}`));
      assert.equal(answer.status, 429, `submission ${attempt}`);
      assert.equal((answer.body as { error: string }).error, 'rate_limited');
    }
    // Request log lines are written in batches: wait for them rather than read them at once.
    await waitFor('each replica to log its refusal', () => (replicasThatAnswered(cluster.replicas, client, 429).length === 3 ? true : undefined));
    assert.ok(replicasThatAnswered(cluster.replicas, client, 200).length >= 2, 'the accepted submissions went to several replicas');
    const rows = await cluster.query<{ count: string }>("SELECT count(*) FROM archives WHERE archive = 'contact.jsonl' AND data->>'name' LIKE 'Limited %'");
    assert.equal(Number(rows[0]?.count), 10);
    // Another client has its own bucket.
    assert.equal((await submit(cluster.base, '/contact', '203.0.113.11', 'Someone else')).status, 200);
  });

  it('confirms a link clicked 100 times at once over the replicas exactly once: one 200, the others 410', async () => {
    const email = 'clicker@example.org';
    const link = await signUp(cluster, email, '203.0.113.40');
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => statusAndBody(fetch(`${cluster.base}${link}`, { headers: { 'x-forwarded-for': '203.0.113.41' } }))),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 200).length, 1, `one confirmation: ${JSON.stringify(statuses)}`);
    assert.equal(statuses.filter((status) => status === 410).length, 99, `the others find the link used: ${JSON.stringify(statuses)}`);

    // The clicks were spread over the replicas, by their own request log lines (written in batches: waited for).
    const clicksOf = (replica: ClusterReplica) =>
      replica.requestLines().filter((line) => String(line.path).startsWith('/newsletter/confirm') && line.ip === '203.0.113.41');
    await waitFor('the 100 request log lines of the clicks', () => (cluster.replicas.flatMap(clicksOf).length === 100 ? true : undefined));
    const answeredBy = cluster.replicas.filter((replica) => clicksOf(replica).length > 0);
    assert.ok(answeredBy.length >= 2, `clicks answered by ${answeredBy.length} replica(s)`);
    assert.deepEqual(cluster.replicas.flatMap(clicksOf).filter((line) => line.status === 200).length, 1);

    const rows = await cluster.query<{ event: string }>("SELECT event FROM subscriber_events WHERE form = '/newsletter' AND lower(email) = $1", [email]);
    assert.deepEqual(rows.map((row) => row.event), ['subscribed']);
    await cluster.smtp.waitForMessage('the owner notice of the new subscriber', (message) => subscriberNotices(cluster.smtp, email).includes(message), 30_000);
    await waitForEmptyQueue(cluster, 60_000);
    assert.equal(subscriberNotices(cluster.smtp, email).length, 1, 'one owner notice');
  });

  it('sends a campaign once, not once per replica: each subscriber gets exactly one mail', async () => {
    const subscribers = Array.from({ length: 30 }, (_, index) => `reader${index + 1}@example.org`);
    for (const [index, email] of subscribers.entries()) {
      const link = await signUp(cluster, email, `203.0.113.${50 + index}`);
      const confirmed = await fetch(`${cluster.base}${link}`);
      assert.equal(confirmed.status, 200, `confirmation of ${email}`);
      await confirmed.arrayBuffer();
    }
    // The list: these readers and whoever earlier scenarios confirmed.
    const listed = (
      await cluster.query<{ email: string }>("SELECT DISTINCT lower(email) AS email FROM subscriber_events WHERE form = '/newsletter' AND event = 'subscribed'")
    ).map((row) => row.email);
    assert.deepEqual(subscribers.filter((email) => !listed.includes(email)), []);

    const result = await runPostbox(['newsletter', 'send', '--config', cluster.configFile, '--form', '/newsletter', '--post', 'spring-news'], {
      env: cluster.envOf(0),
      timeoutMs: 120_000,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`finished: sent ${listed.length}, failed 0, skipped 0\\n$`));
    await waitForEmptyQueue(cluster, 60_000);

    const campaignMails = cluster.smtp.received.filter((message) => message.parsed.subject === 'Spring news');
    const mailsTo = new Map<string, number>();
    for (const message of campaignMails) for (const recipient of message.recipients) mailsTo.set(recipient, (mailsTo.get(recipient) ?? 0) + 1);
    for (const email of listed) assert.equal(mailsTo.get(email), 1, email);
    assert.equal(campaignMails.length, listed.length);
    // One replica ran it; the others had nothing to do.
    const runners = cluster.replicas.filter((replica) => replica.processes.some((child) => child.logs.some((line) => line.event === 'campaign_started')));
    assert.equal(runners.length, 1);
  });

  it('answers 503 while Redis is down, never letting a client past its limit, and resumes when it is back', async () => {
    const client = '203.0.113.20';
    await cluster.redis.stop();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const answer = await statusAndBody(submit(cluster.base, '/contact', client, `Outage ${attempt}`));
      assert.equal(answer.status, 503);
      assert.equal((answer.body as { error: string }).error, 'unavailable');
    }
    for (const replica of cluster.replicas) {
      const health = await healthStatus(replica);
      assert.equal(health.status, 503);
      assert.ok((health.body as { unavailable: string[] }).unavailable.includes('redis'), JSON.stringify(health.body));
    }
    await cluster.redis.start();
    await waitUntilHealthy(cluster);
    assert.equal((await submit(cluster.base, '/contact', client, 'After the outage')).status, 200);
  });

  it('answers 503 while PostgreSQL is down, archiving nothing half way, and resumes when it is back', async () => {
    const client = '203.0.113.30';
    await cluster.postgres.stop();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const answer = await statusAndBody(submit(cluster.base, '/contact', client, `Database outage ${attempt}`));
      assert.equal(answer.status, 503);
      assert.equal((answer.body as { error: string }).error, 'unavailable');
    }
    for (const replica of cluster.replicas) {
      const health = await healthStatus(replica);
      assert.equal(health.status, 503);
      assert.ok((health.body as { unavailable: string[] }).unavailable.includes('postgres'), JSON.stringify(health.body));
    }
    await cluster.postgres.start();
    await waitUntilHealthy(cluster);
    assert.equal((await submit(cluster.base, '/contact', client, 'Database back')).status, 200);
    const rows = await cluster.query<{ name: string }>("SELECT data->>'name' AS name FROM archives WHERE data->>'name' LIKE 'Database %'");
    assert.deepEqual(rows.map((row) => row.name), ['Database back']);
    // Nothing that was refused was sent either: the sink only ever sees the mails of archived submissions.
    await cluster.smtp.waitForMessage('the mail of the submission after the outage', (message) => message.parsed.subject?.includes('Database back') === true);
    assert.ok(!cluster.smtp.received.some((message) => message.parsed.subject?.includes('Database outage')));
  });

  it(`keeps every submission answered 200, archived and mailed once, while a replica is SIGKILLed and restarted (${SUBMISSIONS} submissions)`, async () => {
    const statuses = new Map<string, number>();
    let next = 0;
    const sendAll = async () => {
      while (next < SUBMISSIONS) {
        const name = `Bulk ${(next += 1)}`;
        // Spread over many clients, as real traffic is (the form has no rate limit anyway).
        const response = await submit(cluster.base, '/bulk', `198.51.100.${next % 250}`, name).catch(() => undefined);
        statuses.set(name, response?.status ?? 0);
        await response?.arrayBuffer();
      }
    };
    const senders = Promise.all(Array.from({ length: CONCURRENCY }, sendAll));
    const killed = 1;
    await waitFor('a third of the submissions', () => (statuses.size >= SUBMISSIONS / 3 ? true : undefined), 60_000, 5);
    // The queue sends a mail twice only if the server accepted it in the instant before the kill, its sender dead
    // before it could record the send (docs/delivery.md). The sink holds its answers around the kill so that the
    // test does not depend on that instant: it waits until every mail it accepted was recorded as sent, kills, and
    // then refuses what it held for now (451), which the queue sends again, the killed replica's once its lease ran out.
    const held: Array<(accept: boolean) => void> = [];
    let holding = true;
    cluster.smtp.options.beforeAccept = () => (holding ? new Promise<boolean>((resolve) => held.push(resolve)) : Promise.resolve(true));
    await waitFor('every owner mail the sink accepted to be recorded as sent', async () => {
      // A message on its way to being accepted (being parsed) counts as accepted: wait until all are held.
      if (cluster.smtp.unanswered !== held.length) return undefined;
      const accepted = new Set(ownerMails(cluster.smtp).map((message) => message.parsed.subject));
      const leased = await cluster.query<{ subject: string }>(
        "SELECT message->'mail'->>'subject' AS subject FROM queue_messages WHERE leased_by IS NOT NULL AND failed_at IS NULL",
      );
      return leased.some((row) => accepted.has(row.subject)) ? undefined : true;
    }, 30_000, 20);
    await cluster.kill(killed);
    holding = false;
    for (const release of held.splice(0)) release(false);
    await waitFor('two thirds of the submissions', () => (statuses.size >= (2 * SUBMISSIONS) / 3 ? true : undefined), 60_000, 5);
    await cluster.restart(killed);
    await senders;

    // A request in flight at the kill may be answered 502 by nginx (a POST once sent is not retried elsewhere).
    const unexpected = [...statuses].filter(([, status]) => status !== 200 && status !== 502);
    assert.deepEqual(unexpected, []);
    const accepted = [...statuses].filter(([, status]) => status === 200).map(([name]) => name);
    assert.ok(accepted.length >= SUBMISSIONS - CONCURRENCY, `${accepted.length} of ${SUBMISSIONS} answered 200`);
    const rows = await cluster.query<{ name: string; copies: string }>(
      "SELECT data->>'name' AS name, count(*) AS copies FROM archives WHERE archive = 'bulk.jsonl' GROUP BY 1",
    );
    const copies = new Map(rows.map((row) => [row.name, Number(row.copies)]));
    assert.deepEqual(accepted.filter((name) => copies.get(name) !== 1), [], 'each submission answered 200 has exactly one archive row');
    assert.deepEqual(rows.filter((row) => Number(row.copies) !== 1), [], 'no submission was archived twice');

    // Each owner mail exactly once. The killed replica's mails go out once their 60-second lease ran out, the ones
    // refused at the kill on their next try: wait for every one, then for the queue to be empty, then count.
    const mailCounts = () => {
      const counts = new Map<string, number>();
      for (const message of ownerMails(cluster.smtp)) {
        const name = (message.parsed.subject ?? '').replace(OWNER_SUBJECT, '');
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return counts;
    };
    await waitFor('the owner mail of every submission answered 200', () => {
      const counts = mailCounts();
      return accepted.every((name) => counts.has(name)) ? true : undefined;
    }, 300_000, 500);
    await waitForEmptyQueue(cluster, 300_000);
    const counts = mailCounts();
    assert.deepEqual(accepted.filter((name) => counts.get(name) !== 1).map((name) => [name, counts.get(name)]), [], 'each submission answered 200 mailed exactly once');
    // A submission answered 502 may have been archived and mailed (its answer lost), but never twice.
    assert.deepEqual([...counts].filter(([, count]) => count !== 1), [], 'no mail sent twice');
    assert.deepEqual([...counts.keys()].filter((name) => copies.get(name) !== 1), [], 'a mail only for an archived submission');

    // Every replica took part, and the restarted one is served again by nginx.
    const restarted = cluster.replicas[killed] as ClusterReplica;
    assert.equal(restarted.processes.length, 2);
    await waitFor('nginx to send a submission to the restarted replica', async () => {
      await (await submit(cluster.base, '/bulk', '198.51.100.251', 'After the restart')).arrayBuffer();
      return restarted.process?.logs.some((line) => line.msg === 'request' && line.path === '/bulk' && line.status === 200) ? true : undefined;
    }, 30_000, 100);
    for (const replica of cluster.replicas) {
      await waitFor(`${replica.address} to have logged accepted submissions`, () =>
        replica.requestLines().some((line) => line.path === '/bulk' && line.status === 200) ? true : undefined,
      );
    }
  });
});
