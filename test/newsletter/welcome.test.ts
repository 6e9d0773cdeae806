// The welcome automation (docs/newsletter.md "Automations"): a confirmation, or a list joined on the preference
// page, mails it with its fields filled, once
// per (automation, address): not again when the address leaves, signs up again and confirms after a restart, and
// one claim wins among replicas sharing PostgreSQL, and migrate --from-files copies the ledger.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importNewsletterFromFiles } from '../../src/adapters/postgres/newsletter-import.js';
import { createPostgresNewsletterStore } from '../../src/adapters/postgres/newsletter-store.js';
import { AUTOMATIONS_FILE } from '../../src/newsletter/newsletter-store.js';
import { createTempDir } from '../support/temp-dir.js';
import { createPostgresState } from '../../src/adapters/postgres/state.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { fillFields } from '../../src/newsletter/welcome.js';
import { createTestNewsletter, loadNewsletterConfig, tokenOf } from '../support/newsletter.js';
import { startPostgresServer, type TestPostgres } from '../support/postgres-server.js';

const DAY = 86_400_000;
const WELCOME = {
  id: 'hello',
  type: 'welcome',
  list: 'newsletter',
  subject: 'Welcome to {{ list }}',
  body: 'Hello {{email}},\n\nthanks for joining **{{list}}**.{{nope}}\n',
};

describe('the welcome automation', () => {
  it('mails once per address, with its fields filled, through a re-subscription and a restart', async () => {
    const harness = await createTestNewsletter(undefined, undefined, {
      newsletter: {
        lists: [{ id: 'newsletter', name: 'The Letter' }, { id: 'weekly', name: 'The Weekly' }],
        automations: [WELCOME, { ...WELCOME, id: 'weekly-hello', list: 'weekly' }],
      },
    });
    after(() => harness.close());
    const welcomes = () => harness.mailer.sent.filter((mail) => mail.subject === 'Welcome to The Letter');
    const signUpAndConfirm = async (newsletter: typeof harness.newsletter | Awaited<ReturnType<typeof harness.restart>>) => {
      assert.equal(await newsletter.signup(harness.form, 'ada@example.org'), 'ok');
      await harness.newsletter.settled();
      assert.equal(await newsletter.confirm(harness.form, tokenOf(harness.mailer.sent.findLast((mail) => /confirm/i.test(mail.subject))!)), 'confirmed');
    };

    await signUpAndConfirm(harness.newsletter);
    assert.equal(welcomes().length, 1);
    const [mail] = welcomes();
    assert.equal(mail!.to, 'ada@example.org');
    assert.match(mail!.text, /^Hello ada@example\.org,\n\nthanks for joining The Letter\.\n\n-- \nYou receive this because you subscribed to [^\n]+\.\nUnsubscribe: https:\/\/\S+\nChoose your lists: https:\/\/\S+\n$/);
    assert.match(mail!.html!, /<strong[^>]*>The Letter<\/strong>/, 'the Markdown as HTML');
    assert.ok(mail!.html!.includes(mail!.list!.unsubscribeUrl.replace(/&/g, '&amp;')), 'the unsubscribe link in the HTML');
    assert.ok(mail!.list?.unsubscribeUrl);

    // Joining a list on the preference page starts that list's welcome.
    const token = new URL(await harness.newsletter.preferences.linkFor('ada@example.org')).searchParams.get('token')!;
    assert.equal((await harness.newsletter.preferences.save(token, ['newsletter', 'weekly'])).kind, 'saved');
    await harness.newsletter.settled();
    assert.deepEqual(harness.mailer.sent.filter((sent) => sent.subject === 'Welcome to The Weekly').map((sent) => sent.to), ['ada@example.org']);

    assert.equal(await harness.newsletter.remove(harness.form, 'ada@example.org'), 'removed');
    const restarted = await harness.restart();
    await signUpAndConfirm(restarted);
    assert.equal(welcomes().length, 1, 'the same address is welcomed once');
  });

  it('mails each step after_days after the welcome, once, to an address still on the list, caught up after a restart', async () => {
    const steps = [
      { after_days: 2, subject: 'Day two', body: 'Two days, {{email}}.' },
      { after_days: 5, subject: 'Day five', body: 'Five.' },
    ];
    const harness = await createTestNewsletter(undefined, undefined, { newsletter: { automations: [{ ...WELCOME, steps }] } });
    after(() => harness.close());
    for (const email of ['ada@example.org', 'bob@example.org']) {
      assert.equal(await harness.newsletter.signup(harness.form, email), 'ok');
      await harness.newsletter.settled();
      assert.equal(await harness.newsletter.confirm(harness.form, tokenOf(harness.mailer.sent.findLast((mail) => mail.to === email && /confirm/i.test(mail.subject))!)), 'confirmed');
    }
    const stepsTo = (subject: string) => harness.mailer.sent.filter((mail) => mail.subject === subject).map((mail) => mail.to);
    const tick = async (newsletter: { settled(): Promise<void> }) => {
      await harness.timers.advance(60_000);
      await newsletter.settled();
    };
    assert.equal(await harness.newsletter.remove(harness.form, 'bob@example.org'), 'removed');
    harness.clock.advance(2 * DAY - 60_000);
    await tick(harness.newsletter);
    assert.deepEqual(stepsTo('Day two'), [], 'not before its time');
    harness.clock.advance(60_000);
    await tick(harness.newsletter);
    await tick(harness.newsletter);
    assert.deepEqual(stepsTo('Day two'), ['ada@example.org'], 'once, and not to an address that left');
    assert.match(harness.mailer.sent.find((mail) => mail.subject === 'Day two')!.text, /^Two days, ada@example\.org\./);
    // Stopped before the fifth day, started after it: the step is caught up, once.
    harness.clock.advance(4 * DAY);
    const restarted = (await harness.restart()) as typeof harness.newsletter;
    await tick(restarted);
    await tick(restarted);
    assert.deepEqual([stepsTo('Day two'), stepsTo('Day five')], [['ada@example.org'], ['ada@example.org']]);
  });

  it('fills known fields and drops unknown ones', () => {
    assert.equal(fillFields('{{a}}-{{ b }}-{{c}}-{{constructor}}', { a: '1', b: '2' }), '1-2--');
  });
});

describe('the automation ledger in PostgreSQL', () => {
  let postgres: TestPostgres;
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    await postgres.close();
  });

  it('lets one claim of a pair win among replicas, whatever the spelling of the address', async () => {
    const url = await postgres.createDatabase('automations');
    const states = [createPostgresState(url, createSilentLogger()), createPostgresState(url, createSilentLogger())];
    try {
      await Promise.all(states.map((state) => state.migrated()));
      const stores = states.map((state) => createPostgresNewsletterStore(state, (size) => Buffer.alloc(size, 1)));
      const at = '2026-03-01T00:00:00.000Z';
      const claims = await Promise.all([...stores, ...stores].map((store, index) => store.claimAutomation('hello', index % 2 === 0 ? 'ada@example.org' : 'ADA@example.org', at)));
      assert.deepEqual(claims.filter(Boolean).length, 1);
      assert.equal(await stores[0]!.claimAutomation('other', 'ada@example.org', at), true, 'another automation is another pair');

      // migrate --from-files brings the ledger of data_dir along, once.
      const temp = await createTempDir('automations-import');
      after(temp.remove);
      await writeFile(path.join(temp.dir, AUTOMATIONS_FILE), `${JSON.stringify({ automation: 'hello', email: 'Bob@example.org', at })}\n`);
      const config = loadNewsletterConfig(temp.dir);
      assert.deepEqual(await importNewsletterFromFiles(temp.dir, config, states[0]!), { copied: 1, skipped: 0 });
      assert.deepEqual(await importNewsletterFromFiles(temp.dir, config, states[0]!), { copied: 0, skipped: 1 });
      assert.equal(await stores[1]!.claimAutomation('hello', 'bob@example.org', at), false);
    } finally {
      await Promise.all(states.map((state) => state.close()));
    }
  });
});
