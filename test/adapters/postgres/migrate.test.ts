// The schema migrations of the PostgreSQL state against a real cluster: applied once, a second start finds
// nothing to do, two replicas starting together take turns, and a database newer than the code is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runMigrations } from '../../../src/adapters/postgres/migrate.js';
import { MIGRATIONS } from '../../../src/adapters/postgres/migrations.js';
import { startPostgresServer, type TestPostgres } from '../../support/postgres-server.js';

const NEWEST = MIGRATIONS.at(-1)!.version;
const ALL = MIGRATIONS.map((migration) => migration.version);

describe('PostgreSQL migrations', () => {
  let postgres: TestPostgres;
  const pools: pg.Pool[] = [];
  const poolFor = (url: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pools.push(pool);
    return pool;
  };
  before(async () => {
    postgres = await startPostgresServer();
  });
  after(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    await postgres.close();
  });

  it('applies every migration on an empty database, and none on the next start', async () => {
    const pool = poolFor(await postgres.createDatabase('twice'));
    assert.deepEqual(await runMigrations(pool), ALL);
    assert.deepEqual(await runMigrations(pool), [], 'the second start finds the schema up to date');
    const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows, MIGRATIONS.map(({ version, name }) => ({ version, name })));
    const tables = await pool.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
    assert.deepEqual(
      tables.rows.map((row) => row.table_name),
      ['activitypub_delivered', 'activitypub_followers', 'activitypub_keys', 'activitypub_queued', 'activitypub_remote_objects', 'admin_audit', 'admin_drafts', 'admin_invitations', 'admin_sessions', 'admin_users', 'analytics_counts', 'analytics_visitors', 'archives', 'blog_comment_approved_addresses', 'blog_comment_mail_tokens', 'blog_comment_subscribers', 'blog_comment_thread_stamps', 'blog_comments', 'blog_webmentions_received', 'blog_webmentions_sent', 'bounce_campaign_tallies', 'bounce_sent_mails', 'bounce_soft', 'campaign_claims', 'campaign_journal', 'campaign_recipients', 'campaigns', 'newsletter_automation_items', 'newsletter_automation_recipients', 'newsletter_automation_states', 'newsletter_automations_mailed', 'newsletter_secret', 'pending_signups', 'queue_messages', 'schema_migrations', 'sign_in_failures', 'spam_challenges', 'spam_quarantine', 'subscriber_events', 'subscriber_tags', 'suppressions'],
    );
  });

  it('is safe when replicas start together: one applies, the others wait for it and find nothing to do', async () => {
    const url = await postgres.createDatabase('together');
    const results = await Promise.all([poolFor(url), poolFor(url), poolFor(url), poolFor(url)].map((pool) => runMigrations(pool)));
    assert.deepEqual(results.map((applied) => applied.length).sort(), [0, 0, 0, ALL.length]);
    const { rows } = await poolFor(url).query('SELECT count(*)::int AS count FROM schema_migrations');
    assert.equal(rows[0].count, ALL.length);
  });

  it('refuses a database migrated by a newer Postbox, leaving it as it was', async () => {
    const pool = poolFor(await postgres.createDatabase('newer'));
    await runMigrations(pool);
    await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [NEWEST + 1]);
    await assert.rejects(runMigrations(pool), /newer than this Postbox knows.*upgrade Postbox/);
  });

  it('rolls a failing migration back whole: no half-made table, no version recorded', async () => {
    const pool = poolFor(await postgres.createDatabase('failing'));
    const broken = [...MIGRATIONS, { version: NEWEST + 1, name: 'broken', sql: 'CREATE TABLE half_made (id int); SELECT no_such_column FROM half_made;' }];
    await assert.rejects(runMigrations(pool, broken));
    const { rows } = await pool.query("SELECT to_regclass('half_made') AS half_made, to_regclass('schema_migrations') AS migrations");
    assert.deepEqual(rows[0], { half_made: null, migrations: null }, 'even the first migrations went back with it');
    assert.deepEqual(await runMigrations(pool), ALL, 'and the good ones apply on the next start');
  });
});
