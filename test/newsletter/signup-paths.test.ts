// A signup's answer does not tell a new address from a known one by its time (docs/newsletter.md "Duplicates"):
// whatever the address (new, pending, subscribed, or a twin of a signup in flight), the answer waits for the same
// steps (both look-ups, one durable write to the pending store) and never for the confirmation mail.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { NewsletterForm } from '../../src/config/config.js';
import { createMetrics } from '../../src/forms/metrics.js';
import { createNewsletter, type RunningNewsletter } from '../../src/newsletter/flow.js';
import type { NewsletterStore } from '../../src/newsletter/newsletter-store.js';
import { addressKey, isExpired, type PendingRecord } from '../../src/newsletter/pending.js';
import { TEST_EPOCH_MS } from '../support/clock.js';
import { createFakeTimer } from '../support/fake-timers.js';
import { captureLogs } from '../support/log-capture.js';
import { counters, createTestNewsletter, loadNewsletterConfig, newsletterFormsOf, type TestNewsletter } from '../support/newsletter.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

/** A store in memory that notes when each of its operations starts and ends; each takes a few turns. */
function createNotingStore(events: string[]): NewsletterStore & { pending: PendingRecord[]; subscribed: Set<string> } {
  const pending: PendingRecord[] = [];
  const subscribed = new Set<string>();
  const step = async <T>(name: string, work: () => T): Promise<T> => {
    events.push(`start ${name}`);
    for (let turn = 0; turn < 3; turn += 1) await Promise.resolve();
    const value = work();
    events.push(`end ${name}`);
    return value;
  };
  return {
    pending,
    subscribed,
    open: async () => undefined,
    secret: async () => Buffer.alloc(32, 7),
    isSubscribed: (form, email) => step('isSubscribed', () => subscribed.has(addressKey(form.path, email))),
    listSubscribers: async () => [],
    hasLivePending: (form, email, now) =>
      step('hasLivePending', () => pending.some((record) => addressKey(record.form, record.email) === addressKey(form.path, email) && !isExpired(record, now))),
    isLivePending: async (form, hash, now) => pending.some((record) => record.hash === hash && record.form === form.path && !isExpired(record, now)),
    addPending: (record) => step('addPending', () => void pending.push(record)),
    removePending: (hash) => step('removePending', () => void pending.splice(pending.findIndex((record) => record.hash === hash), 1)),
    redeem: async () => ({ kind: 'gone', reason: 'unknown' }),
    join: async () => false,
    setTags: async () => false,
    claimAutomation: async () => true,
    automationsMailed: async () => [],
    settleAutomationClaim: async () => true,
    renewAutomationClaim: async () => false,
    unsettledAutomationClaims: async () => [],
    unsubscribe: async () => false,
    removeEverywhere: async () => [],
    purge: async () => 0,
    close: async () => undefined,
  };
}

/** A mail hand-over that waits until the test lets it go. */
function createHeldMail(events: string[]) {
  const held: Array<() => void> = [];
  return {
    held,
    sendMail: () => {
      events.push('start sendMail');
      return new Promise<'sent'>((resolve) =>
        held.push(() => {
          events.push('end sendMail');
          resolve('sent');
        }),
      );
    },
  };
}

interface Harness {
  newsletter: RunningNewsletter;
  form: NewsletterForm;
  events: string[];
  store: ReturnType<typeof createNotingStore>;
  mail: ReturnType<typeof createHeldMail>;
}

async function harness(): Promise<Harness> {
  const config = loadNewsletterConfig('/nonexistent-data-dir');
  const forms = newsletterFormsOf(config);
  const events: string[] = [];
  const store = createNotingStore(events);
  const mail = createHeldMail(events);
  const newsletter = await createNewsletter({
    forms,
    from: 'Forms <forms@example.com>',
    siteNameFor: () => 'Example',
    sendMail: mail.sendMail,
    metrics: createMetrics(forms.map((form) => form.path)),
    logger: captureLogs().logger,
    clock: () => TEST_EPOCH_MS,
    timers: createFakeTimer(),
    randomBytes: createCountingRandomBytes(),
    store,
  });
  return { newsletter, form: forms[0]!, events, store, mail };
}

/** Signs `email` up and gives what happened between the call and the answer, and the outcome. */
async function stepsUntilAnswered(h: Harness, email: string): Promise<{ steps: string[]; outcome: string }> {
  const from = h.events.length;
  const outcome = await h.newsletter.signup(h.form, email);
  return { steps: h.events.slice(from), outcome };
}

const ANSWER_PATH = ['start isSubscribed', 'start hasLivePending', 'end isSubscribed', 'end hasLivePending', 'start addPending', 'end addPending'];

describe('the steps a signup is answered after', () => {
  it('are the same for a new, a pending and a subscribed address, and none of them waits for the mail', async () => {
    const h = await harness();
    const fresh = await stepsUntilAnswered(h, 'new@example.org');
    assert.deepEqual(fresh, { steps: [...ANSWER_PATH, 'start sendMail'], outcome: 'ok' }, 'answered while its mail is still held');
    const pending = await stepsUntilAnswered(h, 'NEW@example.org');
    assert.deepEqual(pending, { steps: ANSWER_PATH, outcome: 'duplicate' });
    h.store.subscribed.add(addressKey(h.form.path, 'reader@example.org'));
    const subscribed = await stepsUntilAnswered(h, 'Reader@example.org');
    assert.deepEqual(subscribed, { steps: ANSWER_PATH, outcome: 'duplicate' });
    // The mail goes once it is let go, after every answer.
    assert.equal(h.mail.held.length, 1);
    h.mail.held.shift()!();
    await h.newsletter.settled();
    assert.equal(h.events.at(-1), 'end sendMail');
    // The known addresses wrote records that match nobody and are dead already.
    const [live, ...others] = h.store.pending;
    assert.equal(live?.email, 'new@example.org');
    assert.deepEqual(others.map((record) => [record.email, isExpired(record, TEST_EPOCH_MS)]), [['', true], ['', true]]);
    await h.newsletter.close();
  });

  it('is the same for a twin arriving while the first signup of its address is being written', async () => {
    const h = await harness();
    const outcomes = await Promise.all(['twin@example.org', '"twin"@example.org'].map((email) => h.newsletter.signup(h.form, email)));
    assert.deepEqual(outcomes, ['ok', 'duplicate']);
    assert.equal(h.events.filter((event) => event === 'end addPending').length, 2, 'each waited for its own write');
    assert.equal(h.events.filter((event) => event === 'start sendMail').length, 1);
    h.mail.held.shift()!();
    await h.newsletter.close();
  });

  it('close waits for the mails of answered signups', async () => {
    const h = await harness();
    await h.newsletter.signup(h.form, 'late@example.org');
    let closed = false;
    const closing = h.newsletter.close().then(() => (closed = true));
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    assert.equal(closed, false);
    h.mail.held.shift()!();
    await closing;
  });
});

describe('signup timing with the real pending journal', () => {
  let test: TestNewsletter | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  it('answers a known address in about the time of a new one (median of many, generous margin)', async () => {
    test = await createTestNewsletter();
    const { newsletter, form } = test;
    const timeOf = async (email: string) => {
      const started = process.hrtime.bigint();
      await newsletter.signup(form, email);
      return Number(process.hrtime.bigint() - started);
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const fresh: number[] = [];
    const known: number[] = [];
    for (let round = 0; round < 25; round += 1) {
      fresh.push(await timeOf(`reader${round}@example.org`));
      known.push(await timeOf(`READER${round}@example.org`));
    }
    assert.equal(counters(test)?.duplicate_signup, 25);
    // Without the durable write, a known address is answered in a small fraction of a new one's time.
    assert.ok(median(known) > median(fresh) * 0.25, `known ${median(known)} ns, new ${median(fresh)} ns`);
  });
});
