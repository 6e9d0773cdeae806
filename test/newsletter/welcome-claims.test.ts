// The welcome automation exactly once across kills and replicas (docs/newsletter.md "Exactly once, across crashes
// and replicas"), on fake time, over the data_dir files and a real PostgreSQL: a process killed between the claim
// and the queue leaves a claim that a later start, or a live replica's periodic pass, mails once; one killed after
// the queue took the mail, before it settled the claim, mails nobody twice, whether the queued mail went first or
// the recovery came first; two replicas recovering at once mail it once.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createFileNewsletterStore } from '../../src/adapters/files/newsletter-store.js';
import { createPostgresNewsletterStore } from '../../src/adapters/postgres/newsletter-store.js';
import { createPostgresState, type PostgresState } from '../../src/adapters/postgres/state.js';
import { resolveSiteName } from '../../src/forms/notifications.js';
import { createMetrics } from '../../src/forms/metrics.js';
import { createJsonlAppender } from '../../src/kit/files/jsonl.js';
import { createSilentLogger } from '../../src/kit/log.js';
import type { Config } from '../../src/config/config.js';
import { createNewsletter } from '../../src/newsletter/index.js';
import type { RunningNewsletter } from '../../src/newsletter/flow.js';
import type { NewsletterStore } from '../../src/newsletter/newsletter-store.js';
import type { MailMessage } from '../../src/ports.js';
import type { AutomationClaim } from '../../src/queue/outgoing.js';
import { createTestClock, type TestClock } from '../support/clock.js';
import { createFakeTimer, type FakeTimer } from '../support/fake-timers.js';
import { loadNewsletterConfig, newsletterFormsOf, tokenOf } from '../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';
import { createTempDir } from '../support/temp-dir.js';

const EMAIL = 'ada@example.org';
const LEASE = 60_000;
const WELCOME = { id: 'hello', type: 'welcome', list: 'newsletter', subject: 'Welcome', body: 'Hello {{email}}.' };

/** How a process ends: it runs on, or is killed before or after the queue took its welcome mail. */
type Fate = 'runs' | 'killed_before_queue' | 'killed_after_queue';

/**
 * The durable queue every process shares, in memory: `deliver` sends what waits as the mail core's worker does, a
 * welcome only while its claim is its pair's (asking the store of a live process).
 */
function createSharedQueue() {
  const waiting: Array<{ mail: MailMessage; claim?: AutomationClaim }> = [];
  const sent: MailMessage[] = [];
  return {
    waiting,
    sent,
    welcomes: () => sent.filter((mail) => mail.subject === 'Welcome').map((mail) => mail.to),
    async deliver(store: NewsletterStore) {
      for (const entry of waiting.splice(0)) {
        if (entry.claim && !(await store.settleAutomationClaim(entry.claim))) continue;
        sent.push(entry.mail);
      }
    },
  };
}

interface World {
  config: Config;
  clock: TestClock;
  queue: ReturnType<typeof createSharedQueue>;
  /** A new store over the shared records, as a process opens it. */
  openStore(): Promise<NewsletterStore>;
}

interface TestProcess {
  newsletter: RunningNewsletter;
  store: NewsletterStore;
  timers: FakeTimer;
  /** Resolves once a killed process reached the point where it is killed. */
  killed: Promise<void>;
}

/** A process over `world`, with fake timers of its own (a dead process's never fire again). */
async function startProcess(world: World, fate: Fate = 'runs'): Promise<TestProcess> {
  const forms = newsletterFormsOf(world.config);
  const store = await world.openStore();
  const timers = createFakeTimer(world.clock());
  let reached = () => {};
  const killed = new Promise<void>((resolve) => (reached = resolve));
  const newsletter = await createNewsletter({
    forms,
    lists: world.config.newsletter.lists,
    automations: world.config.newsletter.automations,
    from: world.config.mail!.from,
    siteNameFor: (form) => resolveSiteName(undefined, form, world.config.server.public_url),
    sendMail: async (_form, kind, mail, claim) => {
      // The owner's notice of the confirmation is not what this is about.
      if (kind === 'subscriber_notice') return 'queued';
      const dies = kind === 'newsletter' && fate !== 'runs';
      if (dies && fate === 'killed_before_queue') {
        reached();
        return new Promise(() => {});
      }
      world.queue.waiting.push({ mail, ...(claim ? { claim } : {}) });
      if (dies) {
        reached();
        return new Promise(() => {});
      }
      return 'queued';
    },
    store,
    metrics: createMetrics(forms.map((form) => form.path)),
    logger: createSilentLogger(),
    clock: world.clock,
    randomBytes: createCountingRandomBytes(),
    timers,
  });
  return { newsletter, store, timers, killed };
}

/** Signs `EMAIL` up on `process` and confirms it there; a killed process's confirmation never ends, so it is not awaited. */
async function signUpAndConfirm(world: World, process: TestProcess): Promise<void> {
  const form = newsletterFormsOf(world.config)[0]!;
  assert.equal(await process.newsletter.signup(form, EMAIL), 'ok');
  await process.newsletter.settled();
  const link = world.queue.waiting.find((entry) => entry.mail.to === EMAIL && /confirm/i.test(entry.mail.subject));
  const confirmed = process.newsletter.confirm(form, tokenOf(link?.mail));
  await Promise.race([confirmed, process.killed]);
  // Its confirmation mail went: only the welcome is left to the test.
  world.queue.waiting.splice(world.queue.waiting.indexOf(link!), 1);
}

/** Moves the clock, and the timers of the live processes, by `ms`; then waits for their passes. */
async function advance(world: World, ms: number, live: readonly TestProcess[]): Promise<void> {
  world.clock.advance(ms);
  for (const process of live) {
    await process.timers.advance(ms);
    await process.newsletter.settled();
  }
}

/** The welcome tests over the records `openStore` opens (files or PostgreSQL). */
function welcomeOnceTests(makeWorld: () => Promise<World>) {
  it('mails a welcome whose process was killed between the claim and the queue, once, at the next start', async () => {
    const world = await makeWorld();
    const doomed = await startProcess(world, 'killed_before_queue');
    await signUpAndConfirm(world, doomed);
    await doomed.killed;
    assert.equal(world.queue.waiting.length, 0, 'nothing queued before the kill');

    await advance(world, LEASE + 1_000, []);
    const next = await startProcess(world);
    await next.newsletter.settled();
    await world.queue.deliver(next.store);
    assert.deepEqual(world.queue.welcomes(), [EMAIL]);

    await advance(world, 5 * LEASE, [next]);
    await world.queue.deliver(next.store);
    const again = await startProcess(world);
    await again.newsletter.settled();
    await world.queue.deliver(again.store);
    assert.deepEqual(world.queue.welcomes(), [EMAIL], 'once, whatever the passes and restarts');
    await next.newsletter.close();
    await again.newsletter.close();
  });

  it('does not mail twice a welcome queued just before its process was killed, before or after its mail went', async () => {
    // The recovery comes first: the mail queued before the kill no longer holds the pair's claim.
    const world = await makeWorld();
    const doomed = await startProcess(world, 'killed_after_queue');
    await signUpAndConfirm(world, doomed);
    await doomed.killed;
    assert.equal(world.queue.waiting.length, 1);
    await advance(world, LEASE + 1_000, []);
    const next = await startProcess(world);
    await next.newsletter.settled();
    assert.equal(world.queue.waiting.length, 2, 'queued again under a renewed claim');
    await world.queue.deliver(next.store);
    assert.deepEqual(world.queue.welcomes(), [EMAIL]);

    // The queued mail goes first: it settles the claim, and the recovery finds nothing to do.
    const other = await makeWorld();
    const dying = await startProcess(other, 'killed_after_queue');
    await signUpAndConfirm(other, dying);
    await dying.killed;
    const worker = await startProcess(other);
    await other.queue.deliver(worker.store);
    await advance(other, LEASE + 1_000, [worker]);
    const restarted = await startProcess(other);
    await restarted.newsletter.settled();
    await other.queue.deliver(restarted.store);
    assert.deepEqual(other.queue.welcomes(), [EMAIL]);
    for (const process of [next, worker, restarted]) await process.newsletter.close();
  });
}

describe('the welcome exactly once, in data_dir', () => {
  const removals: Array<() => Promise<void>> = [];
  after(async () => {
    for (const remove of removals) await remove();
  });
  welcomeOnceTests(async () => {
    const { dir, remove } = await createTempDir('welcome-claims');
    removals.push(remove);
    const config = loadNewsletterConfig(dir, undefined, { newsletter: { automations: [WELCOME] } });
    const forms = newsletterFormsOf(config);
    const randomBytes = createCountingRandomBytes();
    return {
      config,
      clock: createTestClock(),
      queue: createSharedQueue(),
      openStore: async () =>
        createFileNewsletterStore({ dataDir: dir, forms, lists: config.newsletter.lists.map((list) => list.log), appendLine: createJsonlAppender(), randomBytes, logger: createSilentLogger() }),
    };
  });
});

describe('the welcome exactly once, in PostgreSQL with replicas', () => {
  let postgres: TestPostgres;
  const states: PostgresState[] = [];
  let databases = 0;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const state of states) await state.close();
    await postgres.close();
  });
  const makeWorld = async (): Promise<World> => {
    const url = await postgres.createDatabase(`welcome_${(databases += 1)}`);
    const { dir, remove } = await createTempDir('welcome-claims-pg');
    after(remove);
    const config = loadNewsletterConfig(dir, undefined, { newsletter: { automations: [WELCOME] } });
    const first = createPostgresState(url, createSilentLogger());
    await first.migrated();
    states.push(first);
    return {
      config,
      clock: createTestClock(),
      queue: createSharedQueue(),
      // Each process its own connections to the one database.
      openStore: async () => {
        const state = createPostgresState(url, createSilentLogger());
        states.push(state);
        await state.migrated();
        return createPostgresNewsletterStore(state, (size) => Buffer.alloc(size, 7));
      },
    };
  };
  welcomeOnceTests(makeWorld);

  it('mails a claim left by a killed replica once when two replicas recover it at the same moment, by their periodic pass', async () => {
    for (const fate of ['killed_before_queue', 'killed_after_queue'] as const) {
      const world = await makeWorld();
      // Both replicas run from before the kill: their start finds nothing, their pass a minute later finds the claim.
      const replicas = [await startProcess(world), await startProcess(world)];
      const doomed = await startProcess(world, fate);
      await signUpAndConfirm(world, doomed);
      await doomed.killed;
      await advance(world, 30_000, replicas);
      assert.equal(world.queue.waiting.length, fate === 'killed_before_queue' ? 0 : 1, 'within the lease, nobody takes it');
      world.clock.advance(LEASE);
      await Promise.all(replicas.map((replica) => replica.timers.advance(LEASE)));
      await Promise.all(replicas.map((replica) => replica.newsletter.settled()));
      for (let turn = 0; turn < 10; turn += 1) await nextTurn();
      await world.queue.deliver(replicas[1]!.store);
      assert.deepEqual(world.queue.welcomes(), [EMAIL], fate);
      await advance(world, 5 * LEASE, replicas);
      await world.queue.deliver(replicas[0]!.store);
      assert.deepEqual(world.queue.welcomes(), [EMAIL], `${fate}: not again`);
      for (const replica of replicas) await replica.newsletter.close();
    }
  });
});
