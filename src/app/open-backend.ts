// The one place that picks where records are kept (docs/configuration.md "[state]"): the files of data_dir, or
// PostgreSQL. Everything else is handed the Backend it opened.
import type { Backend } from '../adapters/backend.js';
import { openBackend as openFilesBackend } from '../adapters/files/backend.js';
import { openBackend as openPostgresBackend } from '../adapters/postgres/backend.js';
import type { ContentSignal } from '../adapters/git/content-sync.js';
import { createPostgresSignal } from '../adapters/git/postgres-signal.js';
import { postgresUrlOf, type Config } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';

/** The backend `[state]` names; `clock` dates what a store stamps itself (a retry request). */
export function openBackend(config: Config, logger: Logger, clock: Clock = Date.now): Backend {
  return postgresUrlOf(config) === undefined ? openFilesBackend(config, logger, clock) : openPostgresBackend(config, logger, clock);
}

/**
 * How replicas tell each other that the posts' remote moved (docs/admin.md "Posts in git"): NOTIFY in the
 * PostgreSQL they share; with the files of data_dir there is nobody to tell (each fetches every pull_seconds).
 */
export function openContentSignal(config: Config, logger: Logger): ContentSignal | undefined {
  const url = postgresUrlOf(config);
  return url === undefined ? undefined : createPostgresSignal(url, logger);
}
