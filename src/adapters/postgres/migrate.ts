// Brings the database to the newest schema of migrations.ts, in one transaction under an advisory lock: replicas
// that start together take turns, the second finds the work done, and a failed migration leaves nothing behind.
import type pg from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

/** The advisory lock key of schema changes (any fixed number; this one spells "pbox"). */
const MIGRATION_LOCK = 0x70626f78;

/** The versions applied now, oldest first (none when the database was up to date). */
export async function runMigrations(pool: pg.Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  // A connection lost while checked out (the server stopped mid-migration) fails its statement; without a
  // listener its 'error' event would end the process. It is not reused.
  let lost = false;
  const onLost = () => {
    lost = true;
  };
  client.on('error', onLost);
  try {
    await client.query('BEGIN');
    // Taken before schema_migrations exists: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...done);
    const known = Math.max(0, ...migrations.map((migration) => migration.version));
    // A newer replica migrated already: this older one must not write to tables it does not know.
    if (newest > known) throw new Error(`the database schema is at version ${newest}, newer than this Postbox knows (${known}): upgrade Postbox`);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', onLost);
    client.release(lost);
  }
}
