// The connection to the PostgreSQL of `[state] backend = "postgres"` (docs/configuration.md "[state]"): a pool, the
// schema migrated at start, and a probe that keeps /health honest. The service starts even while PostgreSQL is down:
// migrations are tried again until they ran, queries meanwhile fail with UnavailableError (503), and every store works
// again by itself once the database answers.
import type pg from 'pg';
import { lazyModule } from '../../kit/lazy-module.js';
import type { Logger } from '../../kit/log.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import { isUnreachable, postgresReason } from './errors.js';
import { runMigrations } from './migrate.js';

/** How often the probe asks whether the database answers (and migrations are tried again before they ran). */
const PROBE_INTERVAL_MS = 1_000;

export interface PostgresStateOptions {
  /** Connections per process (pg's default is 10). */
  maxConnections?: number;
  probeIntervalMs?: number;
}

/** The database as the stores see it. */
export interface PostgresState {
  /**
   * Runs one statement; rejects with UnavailableError("postgres") when the database cannot be reached or is not
   * migrated yet, with the server's error otherwise.
   */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<Row>>;
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it rejects; errors as query. */
  transaction<T>(work: (query: TransactionQuery) => Promise<T>): Promise<T>;
  /** ["postgres"] while the database is unreachable or not migrated, for /health. */
  unavailableParts(): string[];
  /** Resolves once migrations ran (the first start of a test, `postbox migrate`). */
  migrated(): Promise<void>;
  close(): Promise<void>;
}

/** A statement inside PostgresState.transaction. */
export type TransactionQuery = <Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<Row>>;

const loadPg = lazyModule<typeof pg>('pg');

/** Connects to `url` in the background, migrates, and keeps probing until closed. */
export function createPostgresState(url: string, logger: Logger, options: PostgresStateOptions = {}): PostgresState {
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: options.maxConnections ?? 10,
    // A request waits at most this long for a connection before it is answered 503.
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    query_timeout: 5_000,
    application_name: 'postbox',
  });
  // An idle connection the server dropped (a restart): the pool discards it; without a listener it would crash the process.
  pool.on('error', (error) => note(false, error));

  let reachable: boolean | undefined;
  let isMigrated = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  let signalMigrated: () => void = () => undefined;
  const whenMigrated = new Promise<void>((resolve) => {
    signalMigrated = resolve;
  });
  const note = (now: boolean, error?: unknown) => {
    if (reachable === now) return;
    reachable = now;
    if (now) logger.info({ event: 'postgres_ready', part: 'state' }, 'postgres reachable');
    else logger.error({ event: 'postgres_unavailable', part: 'state', reason: postgresReason(error) }, 'postgres unreachable: requests that need it answer 503 until it is back');
  };

  const probe = async () => {
    try {
      if (!isMigrated) {
        const applied = await runMigrations(pool);
        isMigrated = true;
        signalMigrated();
        logger.info({ event: 'postgres_migrated', applied }, applied.length > 0 ? `database schema migrated (${applied.join(', ')})` : 'database schema up to date');
      } else {
        await pool.query('SELECT 1');
      }
      note(true);
    } catch (error) {
      note(false, error);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let probing: Promise<void> = Promise.resolve();
  const loop = () => {
    probing = probe().then(() => {
      if (!closed) timer = setTimeout(loop, options.probeIntervalMs ?? PROBE_INTERVAL_MS).unref();
    });
  };
  loop();

  return {
    async query(text, values) {
      if (!isMigrated) throw new UnavailableError('postgres');
      try {
        const result = await pool.query(text, values);
        note(true);
        return result;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        note(false, error);
        throw new UnavailableError('postgres');
      }
    },
    async transaction(work) {
      if (!isMigrated) throw new UnavailableError('postgres');
      const result = await runTransaction(pool, work, (error) => {
        if (!isUnreachable(error)) return error;
        note(false, error);
        return new UnavailableError('postgres');
      });
      note(true);
      return result;
    },
    unavailableParts: () => (isMigrated && reachable === true ? [] : ['postgres']),
    migrated: () => whenMigrated,
    // Both the forms service and the composition root close it: the second call waits for the first.
    close() {
      closing ??= (async () => {
        closed = true;
        clearTimeout(timer);
        // A probe under way finishes first: ending the pool under it would log an outage that is only a shutdown.
        await probing;
        await pool.end();
      })();
      return closing;
    },
  };
}

/**
 * BEGIN, `work`, COMMIT on one connection of `pool`; ROLLBACK when `work` rejects. Failures of the database
 * (not of `work`'s own code) pass through `mapError`; a connection whose failure it mapped is not reused.
 */
async function runTransaction<T>(pool: pg.Pool, work: (query: TransactionQuery) => Promise<T>, mapError: (error: unknown) => unknown): Promise<T> {
  const client = await pool.connect().catch((error: unknown) => {
    throw mapError(error);
  });
  let broken = false;
  // The pool listens to a connection only while it is idle: one lost while checked out here (the server stopped)
  // would be an unhandled 'error' event and end the process. Its statement fails as well; it is not reused.
  const onLost = () => {
    broken = true;
  };
  client.on('error', onLost);
  const query: TransactionQuery = (text, values) =>
    client.query(text, values).catch((error: unknown) => {
      const mapped = mapError(error);
      broken ||= mapped !== error;
      throw mapped;
    });
  try {
    await query('BEGIN');
    const result = await work(query);
    await query('COMMIT');
    return result;
  } catch (error) {
    if (!broken) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.removeListener('error', onLost);
    client.release(broken);
  }
}

/** How long a `postbox` command waits for the database to answer (and be migrated) before it gives up. */
const COMMAND_WAIT_MS = 10_000;

/** Resolves once `state` is migrated; rejects with UnavailableError("postgres") when that takes longer than a command waits. */
export async function migratedForCommand(state: PostgresState, waitMs = COMMAND_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnavailableError('postgres')), waitMs);
  });
  try {
    await Promise.race([state.migrated(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
