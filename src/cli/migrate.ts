// `postbox migrate [--from-files]` (docs/configuration.md "[state]"): brings the PostgreSQL of
// `[state] backend = "postgres"` to the newest schema, and with --from-files copies the records of data_dir into
// it, idempotently.
import type pg from 'pg';
import { postgresPlaceOf } from './check-summary.js';
import { postgresUrlOf, type Config } from '../config/config.js';
import { createSilentLogger } from '../kit/log.js';
import { FILE_IMPORTERS, type FileImporter } from '../adapters/postgres/file-importers.js';
import { runMigrations } from '../adapters/postgres/migrate.js';
import { createPostgresState } from '../adapters/postgres/state.js';
import { lazyModule } from '../kit/lazy-module.js';

const loadPg = lazyModule<typeof pg>('pg');

export const MIGRATE_USAGE = `  postbox migrate [--from-files] [--config FILE]
                                  bring the PostgreSQL of [state] to the newest schema;
                                  --from-files also copies data_dir into it (safe to repeat)
`;

export interface MigrateCommandIo {
  out(text: string): void;
  error(text: string): void;
}

/** A migrate command line, read. */
export interface MigrateCommand {
  fromFiles: boolean;
}

/** `args` and `--from-files` as a MigrateCommand, or what is wrong with them; nothing is read or reached yet. */
export function parseMigrateCommand(args: readonly string[], options: { fromFiles: boolean }): MigrateCommand | { problem: string } {
  return args.length > 0 ? { problem: `migrate takes no arguments, not "${args.join(' ')}"` } : { fromFiles: options.fromFiles };
}

/** Runs `migrate`; the exit code: 0 done, 1 the database refused or could not be reached. */
export async function runMigrateCommand(
  command: MigrateCommand,
  config: Config,
  io: MigrateCommandIo,
  importers: readonly FileImporter[] = FILE_IMPORTERS,
): Promise<number> {
  const url = postgresUrlOf(config);
  if (!url) {
    io.error('postbox: migrate needs [state] backend = "postgres" and its url in the configuration (records are in data_dir files now)\n');
    return 1;
  }
  const place = postgresPlaceOf(url);
  // The schema first, on a connection of its own, so that a refusal (a newer schema, no permission) is told here.
  const pool = new (loadPg().Pool)({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000, application_name: 'postbox migrate' });
  try {
    const applied = await runMigrations(pool);
    io.out(applied.length > 0 ? `${place}: schema migrated (version ${applied.join(', ')})\n` : `${place}: schema up to date\n`);
  } catch (error) {
    io.error(`postbox: PostgreSQL at ${place}: ${messageOf(error)}\n`);
    return 1;
  } finally {
    await pool.end();
  }
  if (!command.fromFiles) return 0;
  // Log lines of the state (reachable, migrated) are for a service, not for this command.
  const state = createPostgresState(url, createSilentLogger());
  try {
    await state.migrated();
    for (const importer of importers) {
      const { copied, skipped } = await importer.run(config.data_dir, config, state);
      io.out(`${importer.name}: copied ${copied}, already there ${skipped}\n`);
    }
    return 0;
  } catch (error) {
    io.error(`postbox: copying ${config.data_dir} into PostgreSQL at ${place} stopped: ${messageOf(error)}; run the command again to go on\n`);
    return 1;
  } finally {
    await state.close();
  }
}

/** The error as the owner running the command reads it (their own terminal: the whole message, which names the file or the refusal). */
function messageOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return message ? message : (code ?? String(error));
}
